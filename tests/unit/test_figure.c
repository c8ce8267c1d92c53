/*
 * Unit tests for src/figure.h: a figure's script is read once, into its
 * description, with the words of its "# needs:" and "# data:" header
 * lines, which the template stage links and the plot stage checks.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "testutil.h"
#include "figure.h"

static char tmpdir[64];

static int
setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/test_figure.XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int
teardown(void **state)
{
	struct buf path = BUF_INIT;

	(void)state;
	buf_addf(&path, "%s/f.gp", tmpdir);
	unlink(path.data);
	buf_release(&path);
	return rmdir(tmpdir);
}

/* The word w of text, as a string to compare. */
static char *
word(const char *text, const struct figure_word *w)
{
	static char s[64];

	assert_true(w->len < sizeof(s));
	memcpy(s, text + w->off, w->len);
	s[w->len] = '\0';
	return s;
}

/*
 * Only lines that start with the key count; words end at a space, a
 * tab or a carriage return; a key with no words gives none.
 */
static void
test_header_words(void **state)
{
	static const char text[] = "# Figure.\n# needs: a.b  c\n"
		"# data: top500\tdevices\r\nplot 1\n#  data: not_a_header\n"
		"x # data: nor_this\n# data:\n# optional: o.p\n"
		"#optional: not_either\n# needs:last";
	static const struct {
		const char *word;
		int data;
	} want[] = { { "a.b", 0 }, { "c", 0 }, { "top500", 1 },
		     { "devices", 1 }, { "o.p", FIGURE_OPTIONAL },
		     { "last", 0 } };
	struct figure_word w;
	size_t pos = 0, i = 0;

	(void)state;
	while (figure_header_word(text, sizeof(text) - 1, &pos, &w)) {
		assert_true(i < sizeof(want) / sizeof(want[0]));
		assert_string_equal(word(text, &w), want[i].word);
		assert_int_equal(w.data, want[i].data);
		i++;
	}
	assert_int_equal(i, sizeof(want) / sizeof(want[0]));
	assert_int_equal(pos, sizeof(text) - 1);
}

/* The script is read once, into the description, with its words. */
static void
test_init_reads_script(void **state)
{
	struct buf path = BUF_INIT;
	struct figure f;
	FILE *fp;

	(void)state;
	buf_addf(&path, "%s/f.gp", tmpdir);
	fp = fopen(path.data, "w");
	assert_non_null(fp);
	fputs("# needs: laptop.energy\n# data: top500 ladder\nplot 1\n", fp);
	fclose(fp);
	figure_init(&f, tmpdir, "f", 2, "report.md", 7, 3);
	assert_string_equal(f.label, "f");
	assert_int_equal(f.number, 2);
	assert_string_equal(f.file, "report.md");
	assert_int_equal(f.line, 7);
	assert_int_equal(f.col, 3);
	assert_string_equal(f.path, path.data);
	assert_non_null(f.script);
	assert_int_equal(f.error, 0);
	assert_true(f.script->show_source);
	assert_int_equal(f.nwords, 3);
	assert_string_equal(word(f.script->data, &f.words[0]),
			    "laptop.energy");
	assert_int_equal(f.words[0].data, 0);
	assert_string_equal(word(f.script->data, &f.words[2]), "ladder");
	assert_int_equal(f.words[2].data, 1);
	/* Read once: the words point into the text held here. */
	unlink(path.data);
	assert_string_equal(f.script->data + f.words[1].off,
			    "top500 ladder\nplot 1\n");
	figure_release(&f);
	assert_null(f.label);
	assert_null(f.script);
	buf_release(&path);
}

/* No script: no words, and why, for the plot stage to say. */
static void
test_init_no_script(void **state)
{
	struct figure f;

	(void)state;
	figure_init(&f, tmpdir, "nofile", 1, "t.md", 1, 1);
	assert_null(f.script);
	assert_int_equal(f.error, ENOENT);
	assert_int_equal(f.nwords, 0);
	assert_non_null(f.path);
	figure_release(&f);
	figure_init(&f, NULL, "nodir", 1, "t.md", 1, 1);
	assert_null(f.script);
	assert_null(f.path);
	assert_int_equal(f.error, ENOENT);
	figure_release(&f);
	/* Releasing twice, or an empty one, does nothing. */
	figure_release(&f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header_words),
		cmocka_unit_test(test_init_reads_script),
		cmocka_unit_test(test_init_no_script),
	};

	return cmocka_run_group_tests_name("figure", tests, setup, teardown);
}
