#ifndef TESTUTIL_H
#define TESTUTIL_H

/*
 * Shared helpers for the cmocka unit tests. Include after <cmocka.h>.
 * cmocka 1.1 has no floating-point asserts, hence assert_near().
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "diag.h"

/* |got - want| <= reltol * |want| (or <= reltol when want is 0). */
#define assert_near(got, want, reltol)                                       \
	do {                                                                 \
		double g_ = (got), w_ = (want), t_ = (reltol);               \
		double e_ = w_ != 0 ? fabs(g_ - w_) / fabs(w_) : fabs(g_);   \
		if (!(e_ <= t_))                                             \
			fail_msg("%s = %.10g, want %.10g within %.3g "       \
				 "(relative error %.3g)", #got, g_, w_, t_,   \
				 e_);                                        \
	} while (0)

/* The invariants of struct buf (git t/unit-tests/u-strbuf.c). */
static inline void
assert_sane_buf(const struct buf *b)
{
	assert_non_null(b->data);
	assert_true(b->cap == 0 || b->len < b->cap);
	assert_int_equal(b->data[b->len], '\0');
}

/*
 * Captures what is written to stderr between capture_start() and
 * capture_end(). capture_end() returns the text; the caller frees it.
 */
static int capture_saved_fd = -1;
static FILE *capture_file;

static inline void
capture_start(void)
{
	fflush(stderr);
	capture_file = tmpfile();
	assert_non_null(capture_file);
	capture_saved_fd = dup(fileno(stderr));
	assert_true(capture_saved_fd >= 0);
	assert_true(dup2(fileno(capture_file), fileno(stderr)) >= 0);
}

static inline char *
capture_end(void)
{
	struct buf b = BUF_INIT;
	char chunk[4096];
	size_t n;

	fflush(stderr);
	assert_true(dup2(capture_saved_fd, fileno(stderr)) >= 0);
	close(capture_saved_fd);
	rewind(capture_file);
	while ((n = fread(chunk, 1, sizeof(chunk), capture_file)) > 0)
		buf_add(&b, chunk, n);
	fclose(capture_file);
	return buf_detach(&b, NULL);
}

/*
 * Makes a new file from the template path (mkstemp: ends in XXXXXX,
 * changed in place) holding the n bytes of data.
 */
static inline void
write_temp(char *path, const void *data, size_t n)
{
	int fd = mkstemp(path);
	FILE *fp;

	assert_true(fd >= 0);
	fp = fdopen(fd, "wb");
	assert_non_null(fp);
	assert_int_equal(fwrite(data, 1, n, fp), n);
	assert_int_equal(fclose(fp), 0);
}

/* Asserts that the captured text equals want, then frees it. */
#define assert_captured(want)                                                \
	do {                                                                 \
		char *got_ = capture_end();                                  \
		if (strcmp(got_, (want))) {                                  \
			print_error("stderr was:\n%s\nwanted:\n%s\n", got_,   \
				    (want));                                 \
			free(got_);                                          \
			fail();                                              \
		}                                                            \
		free(got_);                                                  \
	} while (0)

/*
 * The same for the messages alone: the lines an error shows under it
 * (the file's line and the caret, indented four spaces) left out.
 */
static inline char *
capture_end_messages(void)
{
	char *got = capture_end(), *r = got, *w = got;

	while (*r) {
		size_t len = strcspn(r, "\n") + (r[strcspn(r, "\n")] == '\n');

		if (strncmp(r, "    ", 4)) {
			memmove(w, r, len);
			w += len;
		}
		r += len;
	}
	*w = '\0';
	return got;
}

#define assert_captured_messages(want)                                       \
	do {                                                                 \
		char *got_ = capture_end_messages();                         \
		if (strcmp(got_, (want))) {                                  \
			print_error("stderr was:\n%s\nwanted:\n%s\n", got_,   \
				    (want));                                 \
			free(got_);                                          \
			fail();                                              \
		}                                                            \
		free(got_);                                                  \
	} while (0)

#endif
