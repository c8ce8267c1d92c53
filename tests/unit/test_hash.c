/*
 * The content keys: XXH64 against the values xxhsum -H1 prints (seed 0),
 * the same key fed in pieces of every size, and hash_file() equal to
 * hash_bytes() over a file larger than its read buffer.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "testutil.h"
#include "hash.h"

/* 32 + (i * 7) % 95 for i < n: printable, not periodic in 32 bytes. */
static void
pattern(char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (char)(32 + (i * 7) % 95);
}

static void
test_vectors(void **state)
{
	static const struct {
		const char *s;
		uint64_t want;
	} v[] = {
		{ "", UINT64_C(0xef46db3751d8e999) },
		{ "a", UINT64_C(0xd24ec4f1a98c6e5b) },
		{ "abc", UINT64_C(0x44bc2cf5ad770999) },
		{ "The quick brown fox jumps over the lazy dog",
		  UINT64_C(0x0b242d361fda71bc) },
		{ "0123456789abcdef0123456789abcdef0123456789",
		  UINT64_C(0xa76190c3acf08a1c) },
	};
	char p[1000];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		assert_int_equal(hash_bytes(0, v[i].s, strlen(v[i].s)),
				 v[i].want);
	pattern(p, 100);
	assert_int_equal(hash_bytes(0, p, 100), UINT64_C(0x05e4c752b2aae01a));
	pattern(p, 1000);
	assert_int_equal(hash_bytes(0, p, 1000),
			 UINT64_C(0x1041045372069cc9));
	/* The seed matters. */
	assert_int_not_equal(hash_bytes(1, p, 1000), hash_bytes(0, p, 1000));
}

static void
test_pieces(void **state)
{
	char p[1000];
	uint64_t want;
	size_t step, off;

	(void)state;
	pattern(p, sizeof(p));
	want = hash_bytes(42, p, sizeof(p));
	for (step = 1; step <= 97; step++) {
		struct hasher hs;

		hash_init(&hs, 42);
		for (off = 0; off < sizeof(p); off += step)
			hash_update(&hs, p + off, off + step <= sizeof(p) ?
				    step : sizeof(p) - off);
		assert_int_equal(hash_final(&hs), want);
	}
}

static void
test_file(void **state)
{
	static char big[200000];
	char path[] = "/tmp/ultimate-hash-XXXXXX";
	uint64_t h = 7;

	(void)state;
	pattern(big, sizeof(big));
	write_temp(path, big, sizeof(big));
	assert_int_equal(hash_file(&h, path, 0), 0);
	assert_int_equal(h, hash_bytes(7, big, sizeof(big)));
	unlink(path);
	h = 7;
	assert_int_equal(hash_file(&h, path, 0), -1);
	assert_int_equal(h, 7);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vectors),
		cmocka_unit_test(test_pieces),
		cmocka_unit_test(test_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
