#ifndef SITE_H
#define SITE_H

#include <stddef.h>
#include <stdint.h>

/*
 * The write stage: one run at a time writes into an output folder, and
 * a reader of it sees the previous site or the new one, never a mix,
 * whatever fails or is killed, and when (SITE_QUICK below excepted).
 *
 * - site_open() takes outdir/.lock (a flock() lock, released by the
 *   kernel if the process dies); a second run waits for the first.
 * - Every output file is first written into a staging folder inside
 *   outdir (outdir/.staging-XXXXXX/site, the same file system), where
 *   gnuplot draws too. Files whose content did not change are not
 *   staged.
 * - site_publish() by exchange, the way wherever the system allows it:
 *   the unchanged files are hard-linked into the staged tree (the same
 *   files: they keep their timestamps), what outdir holds that no run
 *   of this program wrote is carried over the same way, a folder of an
 *   older site that holds nothing else is left out; the tree moves to a
 *   folder beside outdir (PARENT/.NAME.staging-XXXXXX) and is exchanged
 *   with outdir in one renameat2(RENAME_EXCHANGE), which no reader sees
 *   half done; the old tree is then removed. Killed at any moment, the
 *   run leaves outdir the old site or the new one, and the next run
 *   removes what it left beside it.
 * - Where no exchange can be done (not Linux, a file system without
 *   RENAME_EXCHANGE, outdir a mount point or "/", a parent folder that
 *   cannot be written; ULTIMATE_PUBLISH=journal for the tests), through
 *   a journal: every destination is checked first, then outdir/.publish
 *   lists the files to move into place and those of the previous run to
 *   remove, is carried out and deleted. A run killed or failing in
 *   between leaves the journal and its staging folder, and the next
 *   site_open() carries it out before anything else: until then a
 *   reader may see some files new and some old.
 * - A run that fails before site_publish() leaves outdir exactly as it
 *   was (and removes outdir again if it made it).
 *
 * Nothing read back from outdir is trusted as a path: the manifest and
 * the journal name relative paths that are checked before use, and
 * files there are read only when they are regular files (no links).
 */
struct buf;
struct site;

/*
 * Makes outdir if needed, takes its lock (printing one line and waiting
 * while another run holds it), finishes or rolls back an interrupted
 * publish and removes stale staging folders. Returns NULL after printing
 * an error (outdir not writable, an interrupted publish that cannot be
 * finished), or quietly when a signal arrived meanwhile
 * (diag_interrupted()). Free with site_close().
 */
struct site *site_open(const char *outdir);
/*
 * Removes the staging folder if site_publish() did not run, releases the
 * lock, removes outdir if this run made it and published nothing, and
 * frees s. NULL does nothing.
 */
void site_close(struct site *s);

/*
 * The no-op check: 1 when outdir/.manifest records the inputs key and
 * every file it lists is there with the content it records, so that a
 * run would write the same bytes; else 0.
 */
int site_uptodate(struct site *s, uint64_t inputs);
/*
 * Records the inputs key for the manifest that site_publish() writes
 * (every published file with its content key).
 */
void site_set_inputs(struct site *s, uint64_t inputs);

/* How site_publish() puts the staged files into outdir. */
enum site_how {
	/* An exchange where the system allows it, else the journal. */
	SITE_WHOLE,
	/*
	 * The journal: the time of the files that changed, not of the
	 * site (an exchange links every file, then removes the old
	 * tree: 50 of the 136 ms of `watch`'s newest edition after a
	 * prose edit, on ext4). Crash-safe as ever, but a reader during
	 * the publish may see some files new and some old: for a build
	 * whose readers wait for its end (the preview of `watch`).
	 */
	SITE_QUICK,
};

/*
 * Makes the staging folder, for publishing how. Returns 0, or -1 after
 * printing an error. Must come before site_write().
 */
int site_begin(struct site *s, enum site_how how);
/*
 * The tree being staged (outdir/.staging-XXXXXX/site), where another
 * program may write files for site_adopt(): one level below the staging
 * folder, so that a stray "../../x" of that program's lands in the
 * staging folder, not in outdir.
 */
const char *site_root(const struct site *s);
/* The output folder, as given (without a trailing '/'). */
const char *site_outdir(const struct site *s);
/*
 * Makes the folders of relpath in the staged tree (for a program that
 * writes there). Returns 0, or -1 after printing an error.
 */
int site_mkdirs(struct site *s, const char *relpath);

/*
 * Writes data to relpath (a relative path with '/' separators, no "..")
 * in the staging folder, creating subfolders; when outdir/relpath holds
 * these bytes already, nothing is written and the file stays as it is.
 * Returns 0, or -1 after printing an error (a full disk is caught here),
 * or quietly once a write failed or the run is being interrupted.
 */
int site_write(struct site *s, const char *relpath, const void *data,
	       size_t len);
/*
 * Takes the file that another program wrote at relpath in the staged
 * tree, whose bytes the caller has read and checked (data), into the
 * site, as site_write() would have written it. Returns 0, or -1 after
 * printing an error.
 */
int site_adopt(struct site *s, const char *relpath, const void *data,
	       size_t len);
/* 1 when relpath was written into the staged tree by this run. */
int site_staged(const struct site *s, const char *relpath);

/*
 * Keeps outdir/relpath as it is, the caller having just checked that its
 * bytes have the content key key (hash_bytes(HASH_INIT, ...)): it is
 * published unchanged, and listed in the manifest with that key.
 */
void site_keep(struct site *s, const char *relpath, uint64_t key);

/*
 * Keeps, as site_keep() would, every file of the previous run's manifest
 * that this run has not written or kept, with the content it has now (a
 * file gone, or no longer a regular file, is dropped): for a publish of
 * part of the site that leaves the rest as it was.
 */
void site_keep_rest(struct site *s);

/*
 * Publishes every staged file, drops the files of the previous run that
 * this one did not write, and removes the staging folder (see above).
 * Signals wait until it is done. Returns 0, or -1 after printing an error
 * (a staged file changed since it was written, a folder or file of
 * someone else's in the way, the exchange failed: nothing published; or
 * a move of the journal failed: then the journal and its staging folder
 * stay for the next run to finish).
 */
int site_publish(struct site *s);

/*
 * How many files of the site have a name ending in suffix (".html": its
 * pages): of those site_publish() published, or before it (a run that
 * found the site up to date) of the previous run's manifest.
 */
size_t site_count(const struct site *s, const char *suffix);

/*
 * Notes the state of everything in outdir but the staging folder, before
 * another program (gnuplot) runs: 0, or -1 after printing an error when
 * a folder of outdir cannot be read (too few file descriptors, say),
 * and then the program must not run. site_verify() afterwards returns 0
 * when nothing there changed, else -1 after printing an error for each
 * file the program wrote (files it added are removed, but never a path
 * that the last published manifest lists; a published file it changed
 * is rewritten by the next run, whose no-op check sees it), or one error
 * when a folder cannot be read (nothing is removed then).
 */
int site_watch(struct site *s);
int site_verify(struct site *s, const char *who);

/*
 * The manifest last published in outdir, its text, into out (emptied
 * first). Returns 0, or -1 (out empty) when there is none that parses.
 */
int site_manifest(const char *outdir, struct buf *out);

/*
 * The paths of the files that differ between two manifests' texts
 * (site_manifest()): made, changed or gone, in the order of their
 * paths, one a line, appended to out. Returns how many, or -1 when one
 * of the texts does not parse or more than max differ (out as it was).
 */
int site_changes(const char *before, const char *after, size_t max,
		 struct buf *out);

#endif
