/*
 * Unit tests for src/diag.h: located errors. A module's own error
 * function passes its arguments on to verror_at(), and the message is
 * the one error_at() prints: the location, the text with user text
 * escaped, the source line and the caret; the error is counted.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <signal.h>
#include <cmocka.h>

#include "testutil.h"
#include "diag.h"

static int
reset(void **state)
{
	(void)state;
	diag_reset();
	diag_set_quiet(0);
	diag_set_context(NULL);
	return 0;
}

/* A wrapper as modeldoc.c's and tparse.c's are: the place, then fmt. */
static int
wrapped(const struct srcfile *f, size_t off, size_t len, const char *fmt,
	...) __attribute__((format(printf, 4, 5)));

static int
wrapped(const struct srcfile *f, size_t off, size_t len, const char *fmt,
	...)
{
	struct srcloc loc = { f, off, len };
	va_list ap;

	va_start(ap, fmt);
	verror_at(&loc, fmt, ap);
	va_end(ap);
	return -1;
}

static const char text[] = "first line\nsecond {{ laptop.ops_mx }} x\n";

static void
test_verror_at_as_error_at(void **state)
{
	struct srcfile *f = srcfile_from_mem("t.md", text, sizeof(text) - 1);
	struct srcloc loc = { f, 21, 13 };
	char *want;

	(void)state;
	f->show_source = 1;
	capture_start();
	assert_int_equal(error_at(&loc, "unknown quantity '%s' (%d)",
				  "laptop.ops_mx", 42), -1);
	want = capture_end();
	assert_string_equal(want, "t.md:2:11: error: unknown quantity "
			    "'laptop.ops_mx' (42)\n"
			    "    second {{ laptop.ops_mx }} x\n"
			    "              ^^^^^^^^^^^^^\n");
	capture_start();
	assert_int_equal(wrapped(f, 21, 13, "unknown quantity '%s' (%d)",
				 "laptop.ops_mx", 42), -1);
	assert_captured(want);
	assert_int_equal(diag_errors(), 2);
	free(want);
	srcfile_free(f);
}

/* User text in the arguments is escaped, as error_at() escapes it. */
static void
test_verror_at_escapes(void **state)
{
	struct srcfile *f = srcfile_from_mem("t.md", text, sizeof(text) - 1);

	(void)state;
	capture_start();
	wrapped(f, 0, 5, "bad name '%s'", "a\x1b[31mb");
	assert_captured("t.md:1:1: error: bad name 'a\\x1b[31mb'\n");
	/* No file: the program's name instead of a place. */
	capture_start();
	wrapped(NULL, 0, 0, "%s", "no place");
	assert_captured("ultimate: error: no place\n");
	srcfile_free(f);
}

/* Counted when quiet, and past the number shown. */
static void
test_verror_at_counts(void **state)
{
	struct srcfile *f = srcfile_from_mem("t.md", text, sizeof(text) - 1);
	int i;

	(void)state;
	diag_set_quiet(1);
	capture_start();
	assert_int_equal(wrapped(f, 0, 1, "quiet %d", 1), -1);
	assert_captured("");
	assert_int_equal(diag_errors(), 1);
	diag_set_quiet(0);
	diag_reset();
	capture_start();
	for (i = 0; i < DIAG_MAX_SHOWN + 3; i++)
		wrapped(f, 0, 1, "error %d", i);
	free(capture_end());
	assert_int_equal(diag_errors(), DIAG_MAX_SHOWN + 3);
	assert_true(diag_full());
	srcfile_free(f);
}

/*
 * Once the run is interrupted, errors are counted, not printed: a stage
 * stopped halfway would report what it had not reached yet. Last: the
 * signal stays caught for the rest of the process.
 */
static void
test_interrupted_errors_not_shown(void **state)
{
	struct srcfile *f = srcfile_from_mem("t.md", text, sizeof(text) - 1);

	(void)state;
	diag_catch_signals();
	raise(SIGTERM);
	assert_int_equal(diag_interrupted(), SIGTERM);
	capture_start();
	assert_int_equal(wrapped(f, 0, 1, "a citation needs %s", "a list"),
			 -1);
	assert_int_equal(error("no figure labelled '%s'", "x"), -1);
	assert_int_equal(error_at_line("d.csv", 2, 3, "bad"), -1);
	assert_captured("");
	assert_int_equal(diag_errors(), 3);
	srcfile_free(f);
}

/* Where a piece's errors went: "at OFF: MESSAGE" lines. */
static int
note_relocated(const void *ctx, size_t off, const char *msg)
{
	struct buf *seen = (struct buf *)(uintptr_t)ctx;

	buf_addf(seen, "at %zu: %s\n", off, msg);
	/* As table_error_in() does: the error counts where it is printed. */
	return error("relocated");
}

/*
 * A piece of another file prints nothing itself: each error goes to its
 * relocate() with the offset in the piece and the message, formatted,
 * and is counted once, there.
 */
static void
test_piece_relocates(void **state)
{
	struct buf seen = BUF_INIT;
	struct srcfile *f = srcfile_piece("a {{ x }}", 9, note_relocated,
					  &seen);
	struct srcloc loc = { f, 5, 1 };

	(void)state;
	assert_string_equal(f->data, "a {{ x }}");
	assert_int_equal(f->len, 9);
	capture_start();
	assert_int_equal(error_at(&loc, "unknown quantity '%s'", "x"), -1);
	assert_int_equal(wrapped(f, 2, 2, "unclosed '%s'", "{{"), -1);
	assert_captured("ultimate: error: relocated\n"
			"ultimate: error: relocated\n");
	assert_string_equal(seen.data, "at 5: unknown quantity 'x'\n"
			    "at 2: unclosed '{{'\n");
	assert_int_equal(diag_errors(), 2);
	srcfile_free(f);
	/* A file read or made from memory prints its own errors. */
	f = srcfile_from_mem("t.md", "x", 1);
	assert_null(f->relocate);
	srcfile_free(f);
	buf_release(&seen);
}

#define T(f) cmocka_unit_test_setup(f, reset)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_verror_at_as_error_at),
		T(test_verror_at_escapes),
		T(test_verror_at_counts),
		T(test_piece_relocates),
		T(test_interrupted_errors_not_shown),	/* last */
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
