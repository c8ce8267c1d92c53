/*
 * Unit tests for src/buf.h, the growable byte buffer. Every test checks
 * the invariants (data never NULL, data[len] == '\0', len < cap once
 * allocated) after each operation with assert_sane_buf().
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>

#include "testutil.h"
#include "buf.h"

static void
test_init(void **state)
{
	struct buf a = BUF_INIT, b;

	(void)state;
	assert_sane_buf(&a);
	assert_int_equal(a.len, 0);
	assert_int_equal(a.cap, 0);
	assert_string_equal(a.data, "");

	b.data = NULL;
	b.len = b.cap = 42;
	buf_init(&b);
	assert_sane_buf(&b);
	assert_int_equal(b.len, 0);
	assert_int_equal(b.cap, 0);
	assert_string_equal(b.data, "");

	/* Releasing a never-allocated buffer is fine. */
	buf_release(&a);
	assert_sane_buf(&a);
	assert_int_equal(a.cap, 0);
}

static void
test_add(void **state)
{
	struct buf b = BUF_INIT;

	(void)state;
	buf_add(&b, "abc", 3);
	assert_sane_buf(&b);
	assert_int_equal(b.len, 3);
	assert_string_equal(b.data, "abc");

	/* Only len bytes are copied. */
	buf_add(&b, "defgh", 2);
	assert_sane_buf(&b);
	assert_int_equal(b.len, 5);
	assert_string_equal(b.data, "abcde");

	/* Adding nothing changes nothing. */
	buf_add(&b, "xyz", 0);
	assert_sane_buf(&b);
	assert_int_equal(b.len, 5);
	assert_string_equal(b.data, "abcde");

	buf_release(&b);
	assert_sane_buf(&b);
	assert_int_equal(b.len, 0);
	assert_int_equal(b.cap, 0);
}

static void
test_add_nothing_to_empty(void **state)
{
	struct buf b = BUF_INIT;

	(void)state;
	buf_add(&b, "", 0);
	assert_sane_buf(&b);
	assert_int_equal(b.len, 0);
	buf_addstr(&b, "");
	assert_sane_buf(&b);
	assert_int_equal(b.len, 0);
	assert_string_equal(b.data, "");
	buf_release(&b);
	assert_sane_buf(&b);
}

static void
test_add_binary(void **state)
{
	struct buf b = BUF_INIT;
	static const char bytes[] = { 'a', '\0', 'b', '\0' };

	(void)state;
	buf_add(&b, bytes, sizeof(bytes));
	assert_sane_buf(&b);
	assert_int_equal(b.len, 4);
	assert_memory_equal(b.data, bytes, 4);
	buf_release(&b);
	assert_sane_buf(&b);
}

static void
test_addstr(void **state)
{
	struct buf b = BUF_INIT;

	(void)state;
	buf_addstr(&b, "hello");
	assert_sane_buf(&b);
	buf_addstr(&b, ", ");
	assert_sane_buf(&b);
	buf_addstr(&b, "world");
	assert_sane_buf(&b);
	assert_int_equal(b.len, 12);
	assert_string_equal(b.data, "hello, world");
	buf_release(&b);
	assert_sane_buf(&b);
}

/* A word for the shell: plain when safe, else single-quoted. */
static void
test_add_shellword(void **state)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
		{ "out", "out" },
		{ "../site/out-2026_v1.0", "../site/out-2026_v1.0" },
		{ "", "''" },
		{ "my out", "'my out'" },
		{ "it's", "'it'\\''s'" },
		{ "$(rm -rf ~)", "'$(rm -rf ~)'" },
		{ "a\nb", "'a\nb'" },
	};
	struct buf b = BUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		buf_reset(&b);
		BUF_ADDLIT(&b, "cd ");
		buf_add_shellword(&b, cases[i].in);
		assert_sane_buf(&b);
		assert_string_equal(b.data + 3, cases[i].want);
	}
	buf_release(&b);
}

static void
test_addch(void **state)
{
	struct buf b = BUF_INIT;

	(void)state;
	buf_addch(&b, 'x');
	assert_sane_buf(&b);
	assert_int_equal(b.len, 1);
	assert_string_equal(b.data, "x");
	buf_addch(&b, 'y');
	assert_sane_buf(&b);
	assert_string_equal(b.data, "xy");
	/* A NUL byte is data like any other. */
	buf_addch(&b, '\0');
	assert_sane_buf(&b);
	assert_int_equal(b.len, 3);
	assert_memory_equal(b.data, "xy\0", 4);
	buf_release(&b);
	assert_sane_buf(&b);
}

static void
test_addch_many(void **state)
{
	struct buf b = BUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < 10000; i++) {
		buf_addch(&b, 'a' + (int)(i % 26));
		assert_sane_buf(&b);
		assert_int_equal(b.len, i + 1);
	}
	for (i = 0; i < 10000; i++)
		assert_int_equal(b.data[i], 'a' + (int)(i % 26));
	buf_release(&b);
	assert_sane_buf(&b);
}

static void
test_addlit(void **state)
{
	struct buf b = BUF_INIT;

	(void)state;
	BUF_ADDLIT(&b, "lit");
	assert_sane_buf(&b);
	assert_int_equal(b.len, 3);
	assert_string_equal(b.data, "lit");
	BUF_ADDLIT(&b, "");
	assert_sane_buf(&b);
	assert_int_equal(b.len, 3);
	BUF_ADDLIT(&b, "eral");
	assert_sane_buf(&b);
	assert_string_equal(b.data, "literal");
	buf_release(&b);
	assert_sane_buf(&b);
}

static void
test_addf(void **state)
{
	struct buf b = BUF_INIT;

	(void)state;
	buf_addf(&b, "%d-%s", 42, "x");
	assert_sane_buf(&b);
	assert_string_equal(b.data, "42-x");
	assert_int_equal(b.len, 4);
	buf_addf(&b, "%.3f|%5s|%-3d|", 3.14159, "ab", 7);
	assert_sane_buf(&b);
	assert_string_equal(b.data, "42-x3.142|   ab|7  |");
	assert_int_equal(b.len, strlen("42-x3.142|   ab|7  |"));
	buf_addf(&b, "%zu%%", (size_t)100);
	assert_sane_buf(&b);
	assert_string_equal(b.data, "42-x3.142|   ab|7  |100%");
	buf_release(&b);
	assert_sane_buf(&b);
}

static void
test_addf_empty(void **state)
{
	struct buf b = BUF_INIT;

	(void)state;
	/* An empty expansion on an unallocated buffer. */
	buf_addf(&b, "%s", "");
	assert_sane_buf(&b);
	assert_int_equal(b.len, 0);
	assert_string_equal(b.data, "");
	buf_addstr(&b, "x");
	buf_addf(&b, "%s", "");
	assert_sane_buf(&b);
	assert_int_equal(b.len, 1);
	assert_string_equal(b.data, "x");
	buf_release(&b);
	assert_sane_buf(&b);
}

/* Formatting exactly up to, and one past, the free space. */
static void
test_addf_at_capacity(void **state)
{
	struct buf b = BUF_INIT;
	size_t room, i;
	char *want;

	(void)state;
	buf_addstr(&b, "seed");
	assert_sane_buf(&b);
	room = b.cap - b.len - 1;
	want = malloc(room + 2);
	assert_non_null(want);
	for (i = 0; i < room + 1; i++)
		want[i] = 'q';
	want[room] = '\0';
	buf_addf(&b, "%s", want);
	assert_sane_buf(&b);
	assert_int_equal(b.len, 4 + room);
	assert_memory_equal(b.data + 4, want, room);

	buf_reset(&b);
	buf_addstr(&b, "seed");
	room = b.cap - b.len;
	free(want);
	want = malloc(room + 1);
	assert_non_null(want);
	memset(want, 'r', room);
	want[room] = '\0';
	buf_addf(&b, "%s", want);
	assert_sane_buf(&b);
	assert_int_equal(b.len, 4 + room);
	assert_memory_equal(b.data, "seed", 4);
	assert_string_equal(b.data + 4, want);
	free(want);
	buf_release(&b);
	assert_sane_buf(&b);
}

/* One formatted string longer than 64 KiB. */
static void
test_addf_long(void **state)
{
	struct buf b = BUF_INIT;
	size_t n = 100 * 1024, i;
	char *s = malloc(n + 1);

	(void)state;
	assert_non_null(s);
	for (i = 0; i < n; i++)
		s[i] = (char)('0' + i % 10);
	s[n] = '\0';
	buf_addstr(&b, "<");
	assert_sane_buf(&b);
	buf_addf(&b, "%s|%s>", s, s);
	assert_sane_buf(&b);
	assert_int_equal(b.len, 1 + 2 * n + 2);
	assert_int_equal(b.data[0], '<');
	assert_memory_equal(b.data + 1, s, n);
	assert_int_equal(b.data[1 + n], '|');
	assert_memory_equal(b.data + 2 + n, s, n);
	assert_string_equal(b.data + 2 + 2 * n, ">");

	/* And a long one on a fresh buffer. */
	buf_release(&b);
	assert_sane_buf(&b);
	buf_addf(&b, "%s", s);
	assert_sane_buf(&b);
	assert_int_equal(b.len, n);
	assert_string_equal(b.data, s);
	free(s);
	buf_release(&b);
	assert_sane_buf(&b);
}

/*
 * buf_addf() gives exactly what snprintf() gives, appended after text
 * already there: %s %c %d %i %u %x %%, flags '-' and '0', widths, '*',
 * %s precision, l ll z, and the rest.
 */
#define SAME_AS_SNPRINTF(...)                                              \
	do {                                                               \
		char want_[512];                                           \
		struct buf b_ = BUF_INIT;                                  \
		snprintf(want_, sizeof(want_), "pre|" __VA_ARGS__);        \
		BUF_ADDLIT(&b_, "pre|");                                   \
		buf_addf(&b_, __VA_ARGS__);                                \
		assert_string_equal(b_.data, want_);                       \
		assert_int_equal(b_.len, strlen(want_));                   \
		assert_sane_buf(&b_);                                      \
		buf_release(&b_);                                          \
	} while (0)

static void
test_addf_conversions(void **state)
{
	(void)state;
	SAME_AS_SNPRINTF("%s", "");
	SAME_AS_SNPRINTF("plain text, no conversion");
	SAME_AS_SNPRINTF("%s.%s", "device", "flops");
	SAME_AS_SNPRINTF("%s:%zu", "data/devices.csv", (size_t)12);
	SAME_AS_SNPRINTF("[%-18s] [%5s] [%-3s]", "claim", "id", "toolong");
	SAME_AS_SNPRINTF("[%.*s] [%.3s] [%.0s] [%.9s]", 4, "abcdefgh", "xy",
			 "gone", "short");
	SAME_AS_SNPRINTF("[%-*s] [%*s] [%-8.3s]", 6, "ab", -6, "cd", "efgh");
	SAME_AS_SNPRINTF("[%*s]", -1, "");
	SAME_AS_SNPRINTF("%d %d %d %i", 0, -1, INT_MIN, INT_MAX);
	SAME_AS_SNPRINTF("%ld %ld %lld %lld", LONG_MIN, LONG_MAX, LLONG_MIN,
			 LLONG_MAX);
	SAME_AS_SNPRINTF("[%05d] [%05d] [%-5d] [%5d] [%02d]", 42, -42, -7, 123,
			 12345);
	SAME_AS_SNPRINTF("%u %lu %llu %zu", 0u, ULONG_MAX, ULLONG_MAX,
			 SIZE_MAX);
	SAME_AS_SNPRINTF("%016llx %016llx %x %04x %lx", 0ULL, ULLONG_MAX,
			 0xbeefu, 0xau, 0x123456789abcUL);
	SAME_AS_SNPRINTF("[%06zu] [%-6zu] [%c] [%3c] [%-3c]", (size_t)42,
			 (size_t)7, 'x', 'y', 'z');
	SAME_AS_SNPRINTF("100%% of %s%%%d", "it", 5);
	/* Others. */
	SAME_AS_SNPRINTF("%.3g %e %5.1f %p %+d % d %#x %hd", 3.14159, 2.5,
			 -0.25, (void *)0, 5, 5, 255u, (short)-3);
	SAME_AS_SNPRINTF("%s then %.17g", "mixed", 0.1);
}

/* Growth across many small formatted appends. */
static void
test_addf_many(void **state)
{
	struct buf b = BUF_INIT, want = BUF_INIT;
	char num[32];
	size_t i;
	int n;

	(void)state;
	for (i = 0; i < 20000; i++) {
		buf_addf(&b, "%zu,", i);
		assert_sane_buf(&b);
		n = snprintf(num, sizeof(num), "%zu,", i);
		assert_true(n > 0);
		buf_add(&want, num, (size_t)n);
	}
	assert_true(b.len > 64 * 1024);
	assert_int_equal(b.len, want.len);
	assert_memory_equal(b.data, want.data, want.len);
	assert_memory_equal(b.data, "0,1,2,3,", 8);
	assert_string_equal(b.data + b.len - 6, "19999,");
	buf_release(&b);
	buf_release(&want);
	assert_sane_buf(&b);
	assert_sane_buf(&want);
}

static void
test_add_long(void **state)
{
	struct buf b = BUF_INIT;
	size_t n = 200 * 1024, i;
	char *s = malloc(n);

	(void)state;
	assert_non_null(s);
	for (i = 0; i < n; i++)
		s[i] = (char)('a' + i % 26);
	for (i = 0; i < 3; i++) {
		buf_add(&b, s, n);
		assert_sane_buf(&b);
	}
	assert_int_equal(b.len, 3 * n);
	for (i = 0; i < 3; i++)
		assert_memory_equal(b.data + i * n, s, n);
	free(s);
	buf_release(&b);
	assert_sane_buf(&b);
}

static void
test_grow(void **state)
{
	struct buf b = BUF_INIT;
	char *before;
	size_t i;

	(void)state;
	buf_grow(&b, 100);
	assert_sane_buf(&b);
	assert_int_equal(b.len, 0);
	assert_true(b.cap >= 101);
	/* The promised room is there: no reallocation while filling it. */
	before = b.data;
	for (i = 0; i < 100; i++) {
		buf_addch(&b, 'g');
		assert_sane_buf(&b);
	}
	assert_ptr_equal(b.data, before);
	assert_int_equal(b.len, 100);
	buf_release(&b);
	assert_sane_buf(&b);
}

static void
test_reset(void **state)
{
	struct buf b = BUF_INIT;
	size_t cap;
	char *data;

	(void)state;
	/* Resetting an unallocated buffer. */
	buf_reset(&b);
	assert_sane_buf(&b);
	assert_int_equal(b.len, 0);
	assert_int_equal(b.cap, 0);

	buf_addstr(&b, "some text");
	assert_sane_buf(&b);
	cap = b.cap;
	data = b.data;
	buf_reset(&b);
	assert_sane_buf(&b);
	assert_int_equal(b.len, 0);
	assert_string_equal(b.data, "");
	/* The allocation is kept. */
	assert_int_equal(b.cap, cap);
	assert_ptr_equal(b.data, data);

	buf_addstr(&b, "new");
	assert_sane_buf(&b);
	assert_string_equal(b.data, "new");
	assert_ptr_equal(b.data, data);
	buf_release(&b);
	assert_sane_buf(&b);
}

static void
test_release(void **state)
{
	struct buf b = BUF_INIT;

	(void)state;
	buf_addstr(&b, "to be freed");
	assert_sane_buf(&b);
	buf_release(&b);
	assert_sane_buf(&b);
	assert_int_equal(b.len, 0);
	assert_int_equal(b.cap, 0);
	assert_string_equal(b.data, "");
	/* Released buffers are reusable, and releasing twice is fine. */
	buf_addstr(&b, "again");
	assert_sane_buf(&b);
	assert_string_equal(b.data, "again");
	buf_release(&b);
	assert_sane_buf(&b);
	buf_release(&b);
	assert_sane_buf(&b);
}

static void
test_detach(void **state)
{
	struct buf b = BUF_INIT;
	size_t len = 99;
	char *s;

	(void)state;
	buf_addstr(&b, "detached");
	assert_sane_buf(&b);
	s = buf_detach(&b, &len);
	assert_sane_buf(&b);
	assert_non_null(s);
	assert_string_equal(s, "detached");
	assert_int_equal(len, 8);
	/* The buffer is left empty and usable; s is ours. */
	assert_int_equal(b.len, 0);
	assert_int_equal(b.cap, 0);
	assert_ptr_not_equal(b.data, s);
	buf_addstr(&b, "next");
	assert_sane_buf(&b);
	assert_string_equal(b.data, "next");
	assert_string_equal(s, "detached");
	free(s);

	/* lenp may be NULL. */
	s = buf_detach(&b, NULL);
	assert_sane_buf(&b);
	assert_string_equal(s, "next");
	free(s);
	buf_release(&b);
	assert_sane_buf(&b);
}

static void
test_detach_empty(void **state)
{
	struct buf b = BUF_INIT;
	size_t len = 99;
	char *s;

	(void)state;
	/* Never allocated: still a fresh string the caller can free(). */
	s = buf_detach(&b, &len);
	assert_sane_buf(&b);
	assert_non_null(s);
	assert_ptr_not_equal(s, buf_empty);
	assert_string_equal(s, "");
	assert_int_equal(len, 0);
	free(s);

	/* Allocated, then emptied. */
	buf_addstr(&b, "gone");
	buf_reset(&b);
	assert_sane_buf(&b);
	s = buf_detach(&b, &len);
	assert_sane_buf(&b);
	assert_string_equal(s, "");
	assert_int_equal(len, 0);
	free(s);
	buf_release(&b);
	assert_sane_buf(&b);
}

/* Two buffers never share bytes, and buf_empty stays empty. */
static void
test_independent(void **state)
{
	struct buf a = BUF_INIT, b = BUF_INIT;

	(void)state;
	buf_addstr(&a, "aaa");
	assert_sane_buf(&a);
	assert_sane_buf(&b);
	assert_string_equal(b.data, "");
	assert_string_equal(buf_empty, "");
	buf_addstr(&b, "bbb");
	assert_sane_buf(&b);
	assert_string_equal(a.data, "aaa");
	assert_string_equal(b.data, "bbb");
	buf_release(&a);
	buf_release(&b);
	assert_sane_buf(&a);
	assert_sane_buf(&b);
	assert_string_equal(buf_empty, "");
}

/* A file appended whole, large or empty; errors leave the buffer. */
static void
test_read_file(void **state)
{
	static char big[200003];
	char path[] = "/tmp/ultimate-buf-XXXXXX";
	struct buf b = BUF_INIT;
	size_t i;
	FILE *fp;

	(void)state;
	for (i = 0; i < sizeof(big); i++)
		big[i] = (char)('a' + i % 26);
	write_temp(path, big, sizeof(big));
	BUF_ADDLIT(&b, "pre");
	assert_int_equal(buf_read_file(&b, path), 0);
	assert_int_equal(b.len, 3 + sizeof(big));
	assert_memory_equal(b.data, "pre", 3);
	assert_memory_equal(b.data + 3, big, sizeof(big));
	assert_sane_buf(&b);
	/* Empty file: nothing added. */
	fp = fopen(path, "wb");
	assert_non_null(fp);
	assert_int_equal(fclose(fp), 0);
	buf_reset(&b);
	assert_int_equal(buf_read_file(&b, path), 0);
	assert_int_equal(b.len, 0);
	assert_sane_buf(&b);
	unlink(path);
	/* Missing: -1; a folder opens but does not read: -2. */
	BUF_ADDLIT(&b, "kept");
	assert_int_equal(buf_read_file(&b, path), -1);
	assert_int_equal(buf_read_file(&b, "/tmp"), -2);
	assert_string_equal(b.data, "kept");
	assert_sane_buf(&b);
	buf_release(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init),
		cmocka_unit_test(test_add),
		cmocka_unit_test(test_add_nothing_to_empty),
		cmocka_unit_test(test_add_binary),
		cmocka_unit_test(test_addstr),
		cmocka_unit_test(test_add_shellword),
		cmocka_unit_test(test_addch),
		cmocka_unit_test(test_addch_many),
		cmocka_unit_test(test_addlit),
		cmocka_unit_test(test_addf),
		cmocka_unit_test(test_addf_empty),
		cmocka_unit_test(test_addf_at_capacity),
		cmocka_unit_test(test_addf_long),
		cmocka_unit_test(test_addf_many),
		cmocka_unit_test(test_addf_conversions),
		cmocka_unit_test(test_add_long),
		cmocka_unit_test(test_grow),
		cmocka_unit_test(test_reset),
		cmocka_unit_test(test_release),
		cmocka_unit_test(test_detach),
		cmocka_unit_test(test_detach_empty),
		cmocka_unit_test(test_read_file),
		cmocka_unit_test(test_independent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
