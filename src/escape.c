/*
 * HTML escaping for the pages the tool writes around cmark-gfm's output:
 * page titles, quantity tables, data tables, figure attributes.
 */
#include "buf.h"
#include "escape.h"
#include "banned.h"

/* 1 for the bytes escape() looks at: controls (and NUL), & < > ". */
static const unsigned char special[256] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	['&'] = 1, ['<'] = 1, ['>'] = 1, ['"'] = 1,
};

static void
escape(struct buf *out, const char *s, int attr)
{
	for (; *s; s++) {
		/* Copy the run of bytes that need no escaping at once. */
		size_t run = 0;

		while (!special[(unsigned char)s[run]])
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
			if (attr)
				BUF_ADDLIT(out, "&quot;");
			else
				buf_addch(out, c);
			break;
		default:
			if (c >= 0x20 || c == '\t' || c == '\n')
				buf_addch(out, c);
			else if (c == '\r')
				buf_addch(out, ' ');
		}
	}
}

void
html_text(struct buf *out, const char *s)
{
	escape(out, s, 0);
}

void
html_attr(struct buf *out, const char *s)
{
	escape(out, s, 1);
}
