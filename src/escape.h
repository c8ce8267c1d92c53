#ifndef ESCAPE_H
#define ESCAPE_H

struct buf;

/*
 * HTML escaping for text we write into pages ourselves (cmark-gfm escapes
 * what it renders). Text: & < > are escaped. Attributes (in double
 * quotes): & < > " are escaped. Control characters other than tab and
 * newline are dropped from both.
 */
void html_text(struct buf *out, const char *s);
void html_attr(struct buf *out, const char *s);

#endif
