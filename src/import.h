#ifndef IMPORT_H
#define IMPORT_H

#include <stddef.h>

struct buf;

/*
 * `ultimate import-refs FILE`: a reference list exported by a reference
 * manager (Zotero's "Better BibTeX"/"BibTeX" or "CSL JSON") turned into
 * the rows of data/references.csv (bib.h): key, label, authors, title,
 * venue, year, doi, url, note. A file whose first character other than
 * white space is '[' or '{' is CSL-JSON, else BibTeX.
 *
 * Every entry is checked as bib_load() checks a row of references.csv
 * (an id for a key, a title, a year of four digits, a DOI that starts
 * with "10.", an http(s) address), and for a key used twice and an entry
 * type the importer does not know; each error is located in the file
 * (file:line:col and a caret). Appends the CSV, header first, to out.
 * Returns 0, or -1 after printing every error (out is then unchanged).
 */
int import_refs(const char *path, struct buf *out);
/* The same for len bytes at data, named name in its errors (the fuzzer). */
int import_refs_mem(const char *name, const char *data, size_t len,
		    struct buf *out);

#endif
