/*
 * Unit tests for src/bib.h: [key] markers and addresses in a data row's
 * source become links, everything else escaped text.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "testutil.h"
#include "bib.h"

static struct bib_entry entries[] = {
	{ "lloyd2000", "Lloyd 2000", "Seth Lloyd", "Ultimate physical limits",
	  "Nature", "2000", "10.1038/35023282", "" },
};
static const struct bib bib = { entries, 1, "references.csv" };

static void
check(const char *text, const char *root, const char *want)
{
	struct buf out = BUF_INIT;

	bib_text_html(&out, &bib, text, root);
	assert_string_equal(out.data, want);
	buf_release(&out);
}

static void
test_markers(void **state)
{
	(void)state;
	check("[lloyd2000], memory section", "",
	      "<a href=\"references.html#ref-lloyd2000\">Lloyd 2000</a>, "
	      "memory section");
	check("see [lloyd2000]", "../../",
	      "see <a href=\"../../references.html#ref-lloyd2000\">Lloyd "
	      "2000</a>");
	/* Unknown keys and non-keys stay text. */
	check("[nobody1999] [Lloyd2000] [] [a b]", "",
	      "[nobody1999] [Lloyd2000] [] [a b]");
	check("<b>[lloyd2000]</b> & co", "",
	      "&lt;b&gt;<a href=\"references.html#ref-lloyd2000\">Lloyd "
	      "2000</a>&lt;/b&gt; &amp; co");
}

static void
test_addresses(void **state)
{
	(void)state;
	check("TOP500 list, top500.org/lists/top500/2008/06/; more", "",
	      "TOP500 list, <a href=\"https://top500.org/lists/top500/2008/"
	      "06/\">top500.org/<wbr>lists/<wbr>top500/<wbr>2008/<wbr>06/</a>; "
	      "more");
	check("at https://lwn.net/Articles/286233/.", "",
	      "at <a href=\"https://lwn.net/Articles/286233/\">https://"
	      "lwn.net/<wbr>Articles/<wbr>286233/</a>.");
	check("(anandtech.com/print/2390)", "",
	      "(<a href=\"https://anandtech.com/print/2390\">anandtech.com/"
	      "<wbr>print/<wbr>2390</a>)");
	check("http://x.org/a?b=1&c=2", "",
	      "<a href=\"http://x.org/a?b=1&amp;c=2\">http://x.org/<wbr>a?b=1"
	      "&amp;c=2</a>");
	/* Not addresses: no path, a DOI, a number, a bad host, a scheme. */
	check("LWN.net (2008); infostory.com", "",
	      "LWN.net (2008); infostory.com");
	check("DOI 10.1016/S1369-7021(03)00729-6", "",
	      "DOI 10.1016/S1369-7021(03)00729-6");
	check("2.5e-8/s and a-.com/x and -a.com/x", "",
	      "2.5e-8/s and a-.com/x and -a.com/x");
	check("javascript://x.org/%0aalert(1) https:// ftp://x.org/a", "",
	      "javascript://x.org/%0aalert(1) https:// ftp://x.org/a");
	check("https://x.org/\"onmouseover=\"a", "",
	      "<a href=\"https://x.org/\">https://x.org/</a>\"onmouseover=\"a");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_markers),
		cmocka_unit_test(test_addresses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
