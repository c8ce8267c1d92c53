/*
 * Unit tests for src/mempool.h: memory carved from chunks in turn, at
 * the alignment asked, a request larger than a chunk in a chunk of its
 * own, and everything freed at once (ASan checks that each byte handed
 * out is in a live chunk and that nothing leaks).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "testutil.h"
#include "mempool.h"

static void
test_alloc(void **state)
{
	struct mempool mp = MEMPOOL_INIT(64);
	char *a, *b, *big;
	double *d;
	size_t i;

	(void)state;
	a = mempool_alloc(&mp, 3, 1);
	memcpy(a, "abc", 3);
	d = mempool_alloc(&mp, sizeof(*d), _Alignof(double));
	assert_int_equal((uintptr_t)d % _Alignof(double), 0);
	*d = 1.5;
	/* The next bytes follow in the same chunk. */
	b = mempool_alloc(&mp, 8, 1);
	assert_true(b > a && b < a + 64);
	/* More than a chunk: a chunk of its own, the others untouched. */
	big = mempool_alloc(&mp, 1000, 1);
	memset(big, 'x', 1000);
	assert_memory_equal(a, "abc", 3);
	assert_true(*d == 1.5);
	for (i = 0; i < 100; i++)
		memset(mempool_alloc(&mp, 40, 8), 'y', 40);
	mempool_release(&mp);
	assert_null(mp.head);
	/* Released, the pool takes requests again. */
	a = mempool_alloc(&mp, 10, 1);
	assert_non_null(a);
	mempool_release(&mp);
	mempool_release(&mp);
}

static void
test_strings(void **state)
{
	struct mempool mp = MEMPOOL_INIT(16);
	const char *s;

	(void)state;
	s = mempool_strdup(&mp, "laptop.mass");
	assert_string_equal(s, "laptop.mass");
	s = mempool_strndup(&mp, "device.x.id", 8);
	assert_string_equal(s, "device.x");
	s = mempool_strdup(&mp, "");
	assert_string_equal(s, "");
	/* A string longer than a chunk. */
	s = mempool_strdup(&mp, "a string longer than sixteen bytes");
	assert_string_equal(s, "a string longer than sixteen bytes");
	mempool_release(&mp);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alloc),
		cmocka_unit_test(test_strings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
