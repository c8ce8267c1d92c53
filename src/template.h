#ifndef TEMPLATE_H
#define TEMPLATE_H

#include <stddef.h>

#include "bib.h"
#include "buf.h"
#include "diag.h"
#include "figure.h"

struct registry;

/*
 * The template stage: Markdown files with {{ ... }} slots (the language
 * is documented in docs/templates.md) -> Markdown with every value
 * filled in. Parsing reads a file and its includes and reports every
 * syntax error; expansion evaluates against the quantity registry and
 * reports every evaluation error, each as file:line:col with a caret.
 */
struct template;

/*
 * Trusted HTML that cmark-gfm's safe mode would drop (figure and table
 * captions, equations): the Markdown holds a paragraph made of a
 * placeholder token, and html.c puts the snippet in the paragraph's
 * place in cmark-gfm's tree. Tokens carry a random nonce, so text from
 * data cannot forge one.
 */
struct snippet {
	char *token;		/* "U7f3a...-3" */
	char *html;
	/*
	 * {{ equation(NAME) }}: the quantity whose formula html.c typesets
	 * here (borrowed from the registry; html is ""), for its symbols
	 * link to where the rendered page's quantities are. NULL: html.
	 */
	const struct quantity *formula;
};

/*
 * A number linked to its entry on the quantities page. The Markdown
 * holds a token, the nonce then "-q" and six digits, where the link
 * goes, and html.c makes the link in cmark-gfm's tree, knowing where it
 * lands: inside a link's text or a URL a number stays a number (a
 * Markdown link there would nest links and break the outer one), and a
 * heading's id and the contents use the number's text.
 */
struct qlink {
	char *text;		/* the number as written: UTF-8, not escaped */
	const char *name;	/* the quantity (borrowed from the registry) */
	/*
	 * {{ math(NAME) }}: the quantity whose formula html.c typesets in
	 * its place, as equations are (text where no markup goes); NULL:
	 * a number. Borrowed from the registry.
	 */
	const struct quantity *formula;
};

/*
 * A stretch of md copied from a template's own text, for errors found
 * once md is read as Markdown (raw HTML): md[off, off + len) is the
 * template text at loc (loc.len == len).
 */
struct mdspan {
	size_t off, len;
	struct srcloc loc;
};

struct expansion {
	struct buf md;
	const struct registry *reg;	/* expanded against (borrowed) */
	char nonce[24];		/* of every token in md */
	struct mdspan *spans;	/* in md order */
	size_t nspans, spans_cap;
	struct snippet *snippets;
	size_t nsnippets, snippets_cap;
	struct qlink *links;	/* token i is links[i] */
	size_t nlinks, links_cap;
	/* The figures placed, in order, for the plot stage (figure.h). */
	struct figure *figures;
	size_t nfigures, figures_cap;
	/*
	 * The references list that {{ cite(key) }} resolves against: set by
	 * the caller before template_expand() (NULL: no references). cited
	 * holds the entries cited, in the order of first citation.
	 */
	const struct bib *bib;
	const struct bib_entry **cited;
	size_t ncited, cited_cap;
	/*
	 * The folder of the figure scripts (templates/figures), set by the
	 * caller before template_expand(): each figure's script is read
	 * from there into its description, and its caption links to the
	 * data files its "# data:" lines name (NULL: no script, a link to
	 * its SVG only). Borrowed.
	 */
	const char *figdir;
	/*
	 * A report of several pages, each expanded on its own then joined
	 * by template_link(). Set by the caller before template_expand():
	 * figs and tabs, the numbers of the last figure and table of the
	 * pages before (0 for the first page; template_expand() leaves
	 * them at this page's last, for the next); bib_page, the page
	 * whose references list this page's citations link to when it has
	 * none of its own ("index.html": "index.html#ref-KEY"; NULL: the
	 * page's own); pages, 1 when template_link() will resolve the
	 * references ({{@label}}) that are not to a label of the page.
	 */
	int figs, tabs;
	const char *bib_page;
	int pages;
	/* The figures and tables placed, in order, and the references. */
	struct xlabel {
		char *label;
		int figure, number;
		struct srcloc loc;
	} *labels;
	size_t nlabels, labels_cap;
	struct xref {
		char *label;
		struct srcloc loc;
	} *refs;		/* token i is refs[i] */
	size_t nrefs, refs_cap;
	/* {{ references() }}: its snippet + 1 (0: none); the first cite. */
	size_t bib_snippet;
	struct srcloc cite_loc;
};

/*
 * Parses dir/name and every file it includes (paths relative to dir).
 * Returns NULL after printing every error. Free with template_free().
 */
struct template *template_load(const char *dir, const char *name);
/* Parses text in memory named name; includes are read from dir. */
struct template *template_parse(const char *dir, const char *name,
				const char *text, size_t len);
void template_free(struct template *t);

/*
 * Expands t against reg into x (initialise it with expansion_init()).
 * Returns 0, or -1 after printing every error.
 */
int template_expand(const struct template *t, const struct registry *reg,
		    struct expansion *x);
/*
 * One text of the template language with value slots only, such as a
 * data file's cell ("at {{ a.b | sci:2 | unit }} per {{ c | int }}";
 * no blocks, includes or references): f's text expanded against reg as
 * plain text (no Markdown escapes, no links) and appended to out, and
 * the registry names its slots read appended to names, each once,
 * space-separated (the inputs of a quantity that quotes them). Errors
 * are located in f, which may be a piece of another file
 * (srcfile_piece(): errors at a CSV cell). Returns 0, or -1 after
 * printing every error.
 */
int template_expand_text(const struct srcfile *f, const struct registry *reg,
			 struct buf *out, struct buf *names);
/*
 * Whether t writes a references list ({{ references() }}) anywhere,
 * taken or not: the page its other pages' citations link to.
 */
int template_lists_references(const struct template *t);
/*
 * Joins the n pages of a report, each expanded with x->pages set, in
 * their order (files[i] is page i's file beside the others:
 * "index.html", "audit.html"): each {{@label}} becomes a link to the
 * label's figure or table on its page ("#fig-x" on the page itself,
 * "audit.html#fig-x" on another); each references list lists the
 * works cited on its page and on the pages whose bib_page it is. A
 * label on two pages, a reference to no label of any page and a
 * citation whose page has no list are errors at their place. Returns
 * 0, or -1 after printing every error.
 */
int template_link(struct expansion *const *xs, const char *const *files,
		  size_t n);
void expansion_init(struct expansion *x);
void expansion_release(struct expansion *x);
/*
 * Where the byte at off of x->md came from: 0 and *loc (the template
 * text from there to the end of its span) when it is a template's own
 * text, -1 when it was written by the expansion (a value, a token).
 */
int expansion_locate(const struct expansion *x, size_t off,
		     struct srcloc *loc);

/*
 * Appends s to out so that Markdown shows it as typed: every ASCII
 * punctuation character is backslash-escaped, line breaks and tabs become
 * spaces, other control characters are dropped.
 */
void md_escape(struct buf *out, const char *s);

#endif
