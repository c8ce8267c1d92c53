#ifndef TESTREG_H
#define TESTREG_H

/*
 * The small registry the expression and template tests evaluate
 * against. Include after testutil.h.
 */
#include "registry.h"

/*
 * Numbers with units and sources, text with HTML and Markdown in it, and
 * two devices; with note, record.note (text with control characters)
 * follows record.name. Free with registry_free().
 */
static inline struct registry *
test_registry(int note)
{
	struct registry *r = registry_new();

	/* Computed (with inputs): the two that templates link. */
	assert_non_null(registry_add_num(r, "laptop.mass", 1, "kg", "",
					 NULL, "assumption", NULL));
	assert_non_null(registry_add_num(r, "laptop.energy",
					 8.987551787368176e16, "J", "m c^2",
					 "laptop.mass", "Einstein 1905", NULL));
	assert_non_null(registry_add_num(r, "laptop.ops_max",
					 5.4255699586085285e50, "ops/s",
					 "2 E / (pi hbar)", "laptop.energy",
					 "Margolus and Levitin 1998", NULL));
	assert_non_null(registry_add_num(r, "laptop.volume", 0.001, "m^3",
					 "", NULL, "assumption", NULL));
	assert_non_null(registry_add_text(r, "record.name", "Roadrunner",
					  NULL, NULL, "TOP500", NULL));
	if (note)
		assert_non_null(registry_add_text(r, "record.note",
						  "one\ntwo\tthree\r\x01!",
						  NULL, NULL, NULL, NULL));
	assert_non_null(registry_add_text(r, "device.a.id", "a", NULL, NULL,
					  NULL, NULL));
	assert_non_null(registry_add_text(r, "device.a.name",
					  "A <b>*bold*</b> | pipe", NULL,
					  NULL, NULL, NULL));
	assert_non_null(registry_add_num(r, "device.a.year", 2008, "", NULL,
					 NULL, NULL, NULL));
	assert_non_null(registry_add_text(r, "device.b.id", "b", NULL, NULL,
					  NULL, NULL));
	assert_non_null(registry_add_text(r, "device.b.name", "B", NULL,
					  NULL, NULL, NULL));
	assert_non_null(registry_add_num(r, "device.b.year", 2024, "", NULL,
					 NULL, NULL, NULL));
	return r;
}

/* cmocka setup for each test: no errors counted from the one before. */
static inline int
reset(void **state)
{
	(void)state;
	diag_reset();
	return 0;
}

#endif
