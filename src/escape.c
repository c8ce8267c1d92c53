/*
 * HTML escaping for the pages the tool writes around cmark-gfm's output:
 * page titles, quantity tables, data tables, figure attributes, and the
 * literal text of code that html.c writes with its links. The one loop
 * that escapes for HTML: every other module calls the functions here.
 */
#include <ctype.h>
#include <stddef.h>

#include "buf.h"
#include "escape.h"
#include "banned.h"

/* 1 for the bytes escape() looks at: controls (and NUL), & < > " and,
 * where a name may break, the dot and underscore. */
static const unsigned char special[256] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	['&'] = 1, ['<'] = 1, ['>'] = 1, ['"'] = 1,
};
static const unsigned char special_break[256] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	['&'] = 1, ['<'] = 1, ['>'] = 1, ['"'] = 1, ['.'] = 1, ['_'] = 1,
};

enum {
	ESC_ATTR = 1,			/* " as &quot; too */
	ESC_BREAK_DOTS = 2,		/* html_name() */
	ESC_BREAK_UNDERSCORES = 4,	/* html_heading() */
	ESC_KEEP_CONTROLS = 8,		/* html_literal(): as cmark-gfm */
};

/*
 * The one HTML escape loop: s up to end into out, as how says (ESC_*);
 * end NULL: up to s's NUL, which stops a run as a special byte does,
 * so that a string is read once (an end from strlen() and a bound
 * tested at every byte were 0.9% more instructions in one edition's
 * report: escape() 13.2M -> 14.7M, strlen() 9.4M -> 10.7M). Every entry
 * point below is this loop.
 */
static void
escape(struct buf *out, const char *s, const char *end, int how)
{
	/*
	 * A dot or an underscore stops the run only where a break may
	 * follow it: the names in every formula's links and titles are
	 * copied whole (one edition: 211.5M -> 207.7M instructions).
	 */
	const unsigned char *stop = how & (ESC_BREAK_DOTS |
					   ESC_BREAK_UNDERSCORES) ?
				    special_break : special;

	for (; end ? s < end : *s != '\0'; s++) {
		/* Copy the run of bytes that need no escaping at once. */
		size_t run = 0;

		/* Without an end, the NUL stops the run: no bound to test. */
		if (end)
			while (s + run < end && !stop[(unsigned char)s[run]])
				run++;
		else
			while (!stop[(unsigned char)s[run]])
				run++;
		if (run) {
			buf_add(out, s, run);
			s += run - 1;
			continue;
		}
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '&':
			BUF_ADDLIT(out, "&amp;");
			break;
		case '<':
			BUF_ADDLIT(out, "&lt;");
			break;
		case '>':
			BUF_ADDLIT(out, "&gt;");
			break;
		case '"':
			if (how & (ESC_ATTR | ESC_KEEP_CONTROLS))
				BUF_ADDLIT(out, "&quot;");
			else
				buf_addch(out, c);
			break;
		case '.':
			buf_addch(out, c);
			/* Before a letter: between a name's parts, never
			 * inside a number (1.5). */
			if ((how & ESC_BREAK_DOTS) && (!end || s + 1 < end) &&
			    (isalpha((unsigned char)s[1]) || s[1] == '_'))
				BUF_ADDLIT(out, "<wbr>");
			break;
		case '_':
			buf_addch(out, c);
			if ((how & ESC_BREAK_UNDERSCORES) &&
			    (end ? s + 1 < end : s[1] != '\0'))
				BUF_ADDLIT(out, "<wbr>");
			break;
		default:
			if (c >= 0x20 || c == '\t' || c == '\n' ||
			    (how & ESC_KEEP_CONTROLS))
				buf_addch(out, c);
			else if (c == '\r')
				buf_addch(out, ' ');
		}
	}
}

void
html_text(struct buf *out, const char *s)
{
	escape(out, s, NULL, 0);
}

void
html_attr(struct buf *out, const char *s)
{
	escape(out, s, NULL, ESC_ATTR);
}

void
html_name(struct buf *out, const char *s)
{
	escape(out, s, NULL, ESC_BREAK_DOTS);
}

void
html_heading(struct buf *out, const char *s)
{
	escape(out, s, NULL, ESC_BREAK_UNDERSCORES);
}

void
html_literal(struct buf *out, const char *s, size_t len)
{
	escape(out, s, s + len, ESC_KEEP_CONTROLS);
}
