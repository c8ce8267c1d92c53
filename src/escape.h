#ifndef ESCAPE_H
#define ESCAPE_H

#include <stddef.h>

struct buf;

/*
 * HTML escaping for text we write into pages ourselves (cmark-gfm escapes
 * what it renders). Text: & < > are escaped. Attributes (in double
 * quotes): & < > " are escaped. Control characters other than tab and
 * newline are dropped from both.
 */
void html_text(struct buf *out, const char *s);
void html_attr(struct buf *out, const char *s);
/*
 * As html_text(), with a <wbr> after each dot inside s: a long quantity
 * name (device.macbook_2008.gap.storage.years_top500_since) may break
 * between its parts in a narrow table column, not in the middle of one.
 */
void html_name(struct buf *out, const char *s);
/* As html_text(), with a <wbr> after each underscore inside s. */
void html_heading(struct buf *out, const char *s);
/*
 * The len bytes of s as cmark-gfm escapes a code span's literal text:
 * & < > " escaped, every other byte (controls and NUL included) kept.
 */
void html_literal(struct buf *out, const char *s, size_t len);

#endif
