/*
 * The arena behind cmark-gfm: zeroed and aligned blocks, reuse of freed
 * blocks of the same size, growth in place, large blocks, and a long
 * random mix of calloc/realloc/free checked against the bytes each live
 * block must still hold. Run under ASan by `make check`, where a block
 * overlapping another would show as corrupted contents here.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "testutil.h"
#include "arena.h"

#ifdef ARENA_ASAN
#include <sanitizer/asan_interface.h>
#endif

static void
test_zeroed(void **state)
{
	unsigned char *p;
	size_t n, i;

	(void)state;
	for (n = 0; n < 3000; n += 37) {
		p = arena_calloc(1, n);
		assert_non_null(p);
		assert_int_equal((uintptr_t)p % 16, 0);
		for (i = 0; i < n; i++)
			assert_int_equal(p[i], 0);
		memset(p, 0xa5, n);
		arena_free(p);
	}
	/* A freed block comes back zeroed too. */
	p = arena_calloc(10, 10);
	memset(p, 0xff, 100);
	arena_free(p);
	p = arena_calloc(100, 1);
	for (i = 0; i < 100; i++)
		assert_int_equal(p[i], 0);
	arena_reset();
	assert_int_equal(arena_footprint(), 0);
}

static void
test_reuse(void **state)
{
	void *a, *b, *c;

	(void)state;
	a = arena_calloc(1, 100);
	b = arena_calloc(1, 100);	/* a is no longer the last block */
	arena_free(a);
	c = arena_calloc(1, 112);	/* same capacity: a's block */
	assert_ptr_equal(c, a);
	/* The last block cut is given back to the chunk at once. */
	arena_free(b);
	c = arena_calloc(1, 50);
	assert_ptr_equal(c, b);
	arena_reset();
}

static void
test_grow(void **state)
{
	char *p, *q;
	size_t i;

	(void)state;
	p = arena_realloc(NULL, 10);
	memcpy(p, "0123456789", 10);
	/* The last block grows where it is. */
	for (i = 20; i < 4000; i += 20) {
		q = arena_realloc(p, i);
		assert_ptr_equal(q, p);
	}
	assert_memory_equal(p, "0123456789", 10);
	/* Not the last block any more: moved, contents kept. */
	(void)arena_calloc(1, 8);
	q = arena_realloc(p, 8000);
	assert_ptr_not_equal(q, p);
	assert_memory_equal(q, "0123456789", 10);
	/* Shrinking keeps the block. */
	assert_ptr_equal(arena_realloc(q, 5), q);
	arena_reset();
}

static void
test_large(void **state)
{
	unsigned char *p, *q;
	size_t i;

	(void)state;
	p = arena_calloc(1, 200000);
	assert_int_equal((uintptr_t)p % 16, 0);
	for (i = 0; i < 200000; i++)
		p[i] = (unsigned char)i;
	q = arena_realloc(p, 500000);
	for (i = 0; i < 200000; i++)
		assert_int_equal(q[i], (unsigned char)i);
	assert_true(arena_footprint() >= 500000);
	arena_free(q);
	assert_int_equal(arena_footprint(), 0);
	p = arena_calloc(1, 300000);
	arena_reset();
	assert_int_equal(arena_footprint(), 0);
}

/* Each live block is filled with its own byte; none may change. */
static void
test_random_mix(void **state)
{
	enum { N = 512, ROUNDS = 200000 };
	static unsigned char *blk[N];
	static size_t len[N];
	uint64_t x = 88172645463325252u;	/* xorshift64 */
	size_t r, i, k, n;

	(void)state;
	for (r = 0; r < ROUNDS; r++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		k = (size_t)(x % N);
		/* Mostly small, sometimes large. */
		n = (x >> 20) % 8 ? (size_t)(x >> 32) % 600 :
				    (size_t)(x >> 32) % 70000;
		if (blk[k]) {
			for (i = 0; i < len[k]; i++)
				if (blk[k][i] != (unsigned char)k)
					fail_msg("block %zu byte %zu changed",
						 k, i);
		}
		switch ((x >> 40) % 3) {
		case 0:
			arena_free(blk[k]);
			blk[k] = arena_calloc(1, n);
			for (i = 0; i < n; i++)
				assert_int_equal(blk[k][i], 0);
			len[k] = 0;
			break;
		case 1:
			blk[k] = arena_realloc(blk[k], n);
			if (n < len[k])
				len[k] = n;
			break;
		default:
			arena_free(blk[k]);
			blk[k] = NULL;
			n = 0;
			break;
		}
		if (blk[k]) {
			memset(blk[k] + len[k], (int)k, n - len[k]);
			len[k] = n;
		} else {
			len[k] = 0;
		}
	}
	arena_reset();
	assert_int_equal(arena_footprint(), 0);
}

/*
 * Under AddressSanitizer (make check): what cmark must not touch is
 * poisoned, so that its stray accesses are reported as with malloc().
 */
static void
test_poison(void **state)
{
#ifdef ARENA_ASAN
	char *a, *b, *big;

	(void)state;
	a = arena_calloc(1, 40);
	b = arena_calloc(1, 40);
	assert_false(__asan_address_is_poisoned(a));
	assert_false(__asan_address_is_poisoned(a + 39));
	/* The slack up to 48, the next header, the chunk's unused end. */
	assert_true(__asan_address_is_poisoned(a + 40));
	assert_true(__asan_address_is_poisoned(a + 48));
	assert_true(__asan_address_is_poisoned(b + 64));
	/* Freed, in a free list: poisoned; taken again: usable. */
	arena_free(a);
	assert_true(__asan_address_is_poisoned(a));
	assert_ptr_equal(arena_calloc(1, 33), a);
	assert_false(__asan_address_is_poisoned(a + 32));
	assert_true(__asan_address_is_poisoned(a + 33 + 7));
	/* Grown in place: the new bytes become usable. */
	b = arena_realloc(b, 200);
	assert_false(__asan_address_is_poisoned(b + 199));
	assert_true(__asan_address_is_poisoned(b + 200 + 7));
	big = arena_calloc(1, 5000);
	assert_false(__asan_address_is_poisoned(big + 4999));
	assert_true(__asan_address_is_poisoned(big + 5000 + 7));
	arena_reset();
#else
	(void)state;
	skip();
#endif
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zeroed),
		cmocka_unit_test(test_reuse),
		cmocka_unit_test(test_grow),
		cmocka_unit_test(test_large),
		cmocka_unit_test(test_random_mix),
		cmocka_unit_test(test_poison),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
