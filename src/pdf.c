/*
 * The PDF stage of report --pdf: staged report pages -> headless
 * Chromium's print -> report.pdf beside each page, before the site is
 * published. Reads the staged tree and the published one (for files
 * that did not change), writes a print tree of links in the staging
 * folder, where Chromium prints, and the PDFs through site_write().
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <dirent.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "diag.h"
#include "file.h"
#include "hash.h"
#include "pdf.h"
#include "site.h"
#include "timing.h"
#include "xalloc.h"
#include "banned.h"

/* POSIX: the application declares it. */
extern char **environ;

/* Seconds between SIGTERM and SIGKILL, as for gnuplot. */
#define GRACE_SECONDS 2
/* The end of Chromium's log kept for an error message. */
#define LOG_KEEP 4096

/* ------------------------------------------------------- normalizing */

/* The edits that changed lengths: where (in the input), and the sum. */
struct shift {
	size_t at;
	long delta;	/* of every edit up to this one */
};

/*
 * Where the input's offset off is in the output: after the last edit
 * before it (v is in input order), found by bisection.
 */
static size_t
moved(const struct shift *v, size_t n, size_t off)
{
	size_t lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (v[mid].at < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (size_t)((long)off + (lo ? v[lo - 1].delta : 0));
}

/*
 * The tag ids seen, each with its number in the order first seen: a
 * hash table (open addressing), since a page has thousands of them.
 */
struct idmap {
	unsigned long *key;	/* id + 1; 0: a free slot */
	size_t *num;
	size_t n, cap;		/* cap: 0 or a power of two */
};

/* The slot of id in m: where it is, or the free one where it goes. */
static size_t
slot_of(const struct idmap *m, unsigned long id)
{
	size_t i = (size_t)(id * 2654435761u) & (m->cap - 1);

	while (m->key[i] && m->key[i] != id + 1)
		i = (i + 1) & (m->cap - 1);
	return i;
}

/* The number of id among the ids seen (the next one when it is new). */
static size_t
number_of(struct idmap *m, unsigned long id)
{
	size_t i;

	if (2 * (m->n + 1) > m->cap) {
		struct idmap g = { NULL, NULL, m->n, m->cap ? 2 * m->cap : 64 };

		g.key = xcalloc(g.cap, sizeof(*g.key));
		g.num = xcalloc(g.cap, sizeof(*g.num));
		for (i = 0; i < m->cap; i++)
			if (m->key[i]) {
				size_t k = slot_of(&g, m->key[i] - 1);

				g.key[k] = m->key[i];
				g.num[k] = m->num[i];
			}
		free(m->key);
		free(m->num);
		*m = g;
	}
	i = slot_of(m, id);
	if (!m->key[i]) {
		m->key[i] = id + 1;
		m->num[i] = m->n++;
	}
	return m->num[i];
}

/* Whether the n bytes at p are digits: then their value into *v. */
static int
digits(const char *p, size_t n, size_t *v)
{
	size_t i, x = 0;

	for (i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return 0;
		x = x * 10 + (size_t)(p[i] - '0');
	}
	if (v)
		*v = x;
	return 1;
}

/* The last s in the len bytes at p (binary: NUL bytes too), or NULL. */
static char *
find_last(char *p, size_t len, const char *s)
{
	size_t n = strlen(s), i;

	for (i = len >= n ? len - n + 1 : 0; i-- > 0;)
		if (!memcmp(p + i, s, n))
			return p + i;
	return NULL;
}

/* Whether p, after what comes before it, is where a stream's data start. */
static int
stream_start(const char *in, const char *p)
{
	while (p > in && (p[-1] == ' ' || p[-1] == '\n' || p[-1] == '\r'))
		p--;
	return p - in >= 2 && !memcmp(p - 2, ">>", 2);
}

/* Whether the len bytes at p start with the string s. */
#define AT(p, len, s) ((len) >= sizeof(s) - 1 && \
		       !memcmp((p), (s), sizeof(s) - 1))

int
pdf_normalize(const char *in, size_t len, const char *prefix,
	      const char *dir, int year, struct buf *out)
{
	struct shift *sh = NULL;
	struct idmap ids = { NULL, NULL, 0, 0 };
	size_t nsh = 0, capsh = 0, i = 0, plen, id;
	size_t ups = 0, dlen = strlen(dir);
	long delta = 0;
	char *xref, *end, *p;
	int ret = -1;

	if (!AT(in, len, "%PDF-") || year < 1000 || year > 9999)
		return -1;
	for (p = strchr(dir, '/'); p; p = strchr(p + 1, '/'))
		ups++;
	plen = strlen(prefix);
	while (i < len) {
		const char *c = in + i;
		size_t left = len - i;

		if (AT(c, left, "stream\n") && stream_start(in, c)) {
			/* Stream data as it is, up to its end. */
			const char *e = NULL, *q = c + 7;

			while ((q = memchr(q, 'e', (size_t)(in + len - q)))) {
				if (AT(q, (size_t)(in + len - q), "endstream")) {
					e = q;
					break;
				}
				q++;
			}
			if (!e)
				goto out;
			buf_add(out, c, (size_t)(e - c));
			i = (size_t)(e - in);
		} else if (*c == '(' && left > plen &&
			   !memcmp(c + 1, prefix, plen)) {
			/* A link into the printed tree: relative to dir. */
			const char *t = c + 1 + plen, *close;
			size_t k, tlen, before = out->len;

			close = memchr(t, ')', (size_t)(in + len - t));
			if (!close)
				goto out;
			tlen = (size_t)(close - t);
			buf_addch(out, '(');
			if (tlen >= dlen && !memcmp(t, dir, dlen)) {
				buf_add(out, t + dlen, tlen - dlen);
			} else {
				for (k = 0; k < ups; k++)
					BUF_ADDLIT(out, "../");
				buf_add(out, t, tlen);
			}
			buf_addch(out, ')');
			delta += (long)(out->len - before) -
				 (long)(tlen + plen + 2);
			sh = xgrow(sh, &capsh, nsh + 1, sizeof(*sh));
			sh[nsh].at = i;
			sh[nsh++].delta = delta;
			i = (size_t)(close - in) + 1;
		} else if (AT(c, left, "node") && left >= 12 &&
			   digits(c + 4, 8, &id)) {
			/* A tag id: numbered in order, the same width. */
			buf_addf(out, "node%08zu", number_of(&ids, id));
			i += 12;
		} else if ((AT(c, left, "/CreationDate (D:") ||
			    AT(c, left, "/ModDate (D:")) &&
			   (p = memchr(c, ':', left)) &&
			   (size_t)(in + len - p) > 15 &&
			   digits(p + 1, 14, NULL)) {
			/* The date: the edition's, the same width. */
			buf_add(out, c, (size_t)(p + 1 - c));
			buf_addf(out, "%04d0101000000", year);
			i = (size_t)(p + 15 - in);
		} else {
			buf_addch(out, *c);
			i++;
		}
	}
	/*
	 * The cross-reference table: every offset after an edit moves. Its
	 * count is the printer's word: checked against what is there by
	 * division (count * 20 can wrap), and each offset read as the ten
	 * digits it is.
	 */
	xref = find_last(out->data, out->len, "\nxref\n");
	if (!xref)
		goto out;
	p = xref + 6;
	{
		unsigned long count, k;
		size_t off;

		strtoul(p, &end, 10);
		if (*end != ' ')
			goto out;
		count = strtoul(end + 1, &end, 10);
		if (*end != '\n')
			goto out;
		p = end + 1;
		if (count > (size_t)(out->data + out->len - p) / 20)
			goto out;
		for (k = 0; k < count; k++, p += 20) {
			char num[11];

			if (!digits(p, 10, &off) || p[17] != 'n')
				continue;
			off = moved(sh, nsh, off);
			if ((unsigned long long)off > 9999999999ULL)
				goto out;
			snprintf(num, sizeof(num), "%010zu", off);
			memcpy(p, num, 10);
		}
	}
	p = find_last(p, (size_t)(out->data + out->len - p), "startxref\n");
	if (!p)
		goto out;
	{
		size_t at = (size_t)(p - out->data) + 10, old;
		struct buf tail = BUF_INIT;

		old = strtoul(out->data + at, &end, 10);
		buf_addf(&tail, "%zu", moved(sh, nsh, old));
		buf_addstr(&tail, end);
		out->len = at;
		out->data[at] = '\0';
		buf_add(out, tail.data, tail.len);
		buf_release(&tail);
	}
	ret = 0;
out:
	free(sh);
	free(ids.key);
	free(ids.num);
	return ret;
}

/* -------------------------------------------------------- print tree */

/* Makes every folder of path (absolute), as mkdir -p. */
static int
mkdirs(const char *path)
{
	char *p = xstrdup(path), *s;
	int ret = 0;

	for (s = strchr(p + 1, '/');; s = strchr(s + 1, '/')) {
		if (s)
			*s = '\0';
		if (mkdir(p, 0700) && errno != EEXIST) {
			ret = error("cannot make '%s': %s", p,
				    strerror(errno));
			break;
		}
		if (!s)
			break;
		*s = '/';
	}
	free(p);
	return ret;
}

/*
 * Links print/rel to the file of the new site: the staged one, or else
 * the published one (a file that did not change is not staged).
 */
static int
link_file(const char *print, const char *staged, const char *published,
	  const char *rel)
{
	struct buf from = BUF_INIT, to = BUF_INIT;
	struct stat st;
	int ret = 0;

	buf_addf(&from, "%s/%s", staged, rel);
	if (lstat(from.data, &st)) {
		buf_reset(&from);
		buf_addf(&from, "%s/%s", published, rel);
	}
	buf_addf(&to, "%s/%s", print, rel);
	unlink(to.data);
	if (symlink(from.data, to.data))
		ret = error("cannot link '%s': %s", to.data, strerror(errno));
	buf_release(&from);
	buf_release(&to);
	return ret;
}

/* Links print/dir/figures/NAME for each NAME in top/dir/figures. */
static int
link_figures(const char *print, const char *staged, const char *published,
	     const char *top, const char *dir)
{
	struct buf path = BUF_INIT, rel = BUF_INIT;
	struct dirent *e;
	DIR *d;
	int ret = 0;

	buf_addf(&path, "%s/%sfigures", top, dir);
	d = opendir(path.data);
	/* None staged: none. Unreadable: the PDF would lack them. */
	if (!d && errno != ENOENT)
		ret = error("cannot read folder '%s': %s", path.data,
			    diag_strerror(errno));
	while (d && !ret && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		buf_reset(&rel);
		buf_addf(&rel, "%sfigures/%s", dir, e->d_name);
		ret = link_file(print, staged, published, rel.data);
	}
	if (d)
		closedir(d);
	buf_release(&path);
	buf_release(&rel);
	return ret;
}

/* The folder part of rel, with its '/' ("" at the top). */
static char *
folder_of(const char *rel)
{
	const char *slash = strrchr(rel, '/');
	size_t n = slash ? (size_t)(slash - rel) + 1 : 0;
	char *d = xmalloc(n + 1);

	memcpy(d, rel, n);
	d[n] = '\0';
	return d;
}

/* file:// and path, each byte but [A-Za-z0-9/._~-] percent-encoded. */
static void
file_url(struct buf *out, const char *path)
{
	const unsigned char *p;

	BUF_ADDLIT(out, "file://");
	for (p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("/._~-", *p))
			buf_addch(out, (char)*p);
		else
			buf_addf(out, "%%%02X", *p);
	}
}

/*
 * Reads the regular file path whole into b (no link followed, at most
 * FILE_MAX_BYTES: what the browser wrote is another program's). Returns
 * 0, or -1 with errno set.
 */
static int
read_whole(const char *path, struct buf *b)
{
	return buf_read_file_flags(b, path, FILE_NOFOLLOW) ? -1 : 0;
}

/*
 * Whether the PDF of page p is published already and would not change:
 * the page, the stylesheet and every figure beside it are the same as
 * published (none staged), and the published PDF is a PDF. Then it is
 * kept (site_keep()) and 1 returned, so that a run that changed one
 * edition prints that edition alone.
 */
static int
keep_published(struct site *s, const char *staged, const char *published,
	       const struct pdf_page *p, const char *dir)
{
	struct buf path = BUF_INIT, rel = BUF_INIT, pdf = BUF_INIT;
	struct dirent *e;
	struct stat st;
	DIR *d;
	int same = !site_staged(s, p->html) && !site_staged(s, "style.css");

	buf_addf(&path, "%s/%sfigures", staged, dir);
	d = same ? opendir(path.data) : NULL;
	/* A folder it cannot look into may hold a changed figure. */
	if (same && !d && errno != ENOENT)
		same = 0;
	while (d && same && (e = readdir(d))) {
		buf_reset(&rel);
		buf_addf(&rel, "%sfigures/%s", dir, e->d_name);
		if (e->d_name[0] != '.' && site_staged(s, rel.data))
			same = 0;
	}
	if (d)
		closedir(d);
	buf_reset(&path);
	buf_addf(&path, "%s/%s", published, p->pdf);
	if (same && (lstat(path.data, &st) || !S_ISREG(st.st_mode) ||
		     read_whole(path.data, &pdf) || pdf.len < 5 ||
		     memcmp(pdf.data, "%PDF-", 5)))
		same = 0;
	if (same)
		site_keep(s, p->pdf, hash_bytes(HASH_INIT, pdf.data, pdf.len));
	buf_release(&path);
	buf_release(&rel);
	buf_release(&pdf);
	return same;
}

/* ------------------------------------------------------------ browser */

struct job {
	const struct pdf_page *page;
	char *dir;		/* the page's folder, "" or ".../" */
	struct buf pdfpath;	/* where the browser writes the PDF */
	struct buf logpath;	/* its stdout and stderr */
	pid_t pid;		/* 0: not running */
	int kept;		/* the published PDF stays */
	double started, stop_at;	/* stop_at < 0: not told to stop */
	int killed, timed_out;
};

/*
 * Starts the browser on job j. Returns 0, or the error of posix_spawnp()
 * (ENOENT: no such browser).
 */
static int
start(struct job *j, const struct pdf_options *opt, const char *print,
      size_t k)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	struct buf profile = BUF_INIT, out = BUF_INIT, url = BUF_INIT;
	struct buf page = BUF_INIT;
	const char *argv[16];
	size_t n = 0;
	int err;

	buf_addf(&profile, "--user-data-dir=%s/profile-%zu", print, k);
	buf_addf(&out, "--print-to-pdf=%s", j->pdfpath.data);
	buf_addf(&page, "%s/%s", print, j->page->html);
	file_url(&url, page.data);
	argv[n++] = opt->browser;
	argv[n++] = "--headless";
	/* As root, Chromium runs only without its sandbox. */
	if (geteuid() == 0)
		argv[n++] = "--no-sandbox";
	argv[n++] = "--disable-gpu";
	argv[n++] = "--no-first-run";
	argv[n++] = "--disable-background-networking";
	argv[n++] = "--disable-component-update";
	argv[n++] = "--no-pdf-header-footer";
	argv[n++] = "--generate-pdf-document-outline";
	argv[n++] = profile.data;
	argv[n++] = out.data;
	argv[n++] = url.data;
	argv[n] = NULL;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, j->logpath.data,
					 O_WRONLY | O_CREAT | O_TRUNC, 0600);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	posix_spawnattr_init(&at);
	/* Its own process group: stopping it stops its helpers too. */
	diag_child_attr(&at);
	err = posix_spawnp(&j->pid, opt->browser, &fa, &at,
			   (char *const *)(void *)argv, environ);
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	if (err)
		j->pid = 0;
	j->started = timing_now();
	j->stop_at = -1;
	buf_release(&profile);
	buf_release(&out);
	buf_release(&url);
	buf_release(&page);
	return err;
}

/*
 * Whether job j ended; its wait status into *status (-1: it cannot be
 * waited for). Whatever it left running in its group is killed first,
 * while its id is still ours.
 */
static int
ended(struct job *j, int *status)
{
	siginfo_t info;

	memset(&info, 0, sizeof(info));
	if (waitid(P_PID, (id_t)j->pid, &info, WEXITED | WNOHANG |
		   WNOWAIT)) {
		if (errno == EINTR)
			return 0;
		*status = -1;
		j->pid = 0;
		return 1;
	}
	if (info.si_pid != j->pid)
		return 0;
	kill(-j->pid, SIGKILL);
	while (waitpid(j->pid, status, 0) < 0 && errno == EINTR)
		;
	j->pid = 0;
	return 1;
}

/* Stops job j at once and waits for it. */
static void
stop(struct job *j)
{
	int status;

	if (!j->pid)
		return;
	kill(-j->pid, SIGKILL);
	while (!ended(j, &status))
		;
}

/* The last line of the browser's log, for a message. */
static void
last_line(const char *path, struct buf *line)
{
	char chunk[LOG_KEEP + 1];
	FILE *f = fopen(path, "rb");
	size_t n = 0;
	long size;
	char *p, *e;

	if (!f)
		return;
	if (!fseek(f, 0, SEEK_END) && (size = ftell(f)) > LOG_KEEP)
		fseek(f, size - LOG_KEEP, SEEK_SET);
	else
		fseek(f, 0, SEEK_SET);
	n = fread(chunk, 1, LOG_KEEP, f);
	fclose(f);
	chunk[n] = '\0';
	e = chunk + strlen(chunk);
	while (e > chunk && (e[-1] == '\n' || e[-1] == '\r' || e[-1] == ' '))
		*--e = '\0';
	p = strrchr(chunk, '\n');
	buf_addstr(line, p ? p + 1 : chunk);
}

/*
 * Job j's browser ended with status: its PDF into the site. Returns 0,
 * or -1 after printing an error.
 */
static int
finish(struct site *s, struct job *j, int status, const char *prefix,
       const struct pdf_options *opt)
{
	struct buf pdf = BUF_INIT, norm = BUF_INIT, why = BUF_INIT;
	int ret = -1;

	if (diag_interrupted())
		goto out;
	if (j->timed_out) {
		error("%s did not print '%s' within %g seconds "
		      "(--figure-timeout); stopped", opt->browser,
		      j->page->html, opt->timeout);
		goto out;
	}
	if (status == -1) {
		error("cannot wait for %s printing '%s'", opt->browser,
		      j->page->html);
		goto out;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		last_line(j->logpath.data, &why);
		if (WIFSIGNALED(status))
			error("%s was killed by signal %d printing '%s'%s%s",
			      opt->browser, WTERMSIG(status), j->page->html,
			      why.len ? ": " : "", why.data);
		else
			error("%s exited with status %d printing '%s'%s%s",
			      opt->browser, WEXITSTATUS(status),
			      j->page->html, why.len ? ": " : "", why.data);
		goto out;
	}
	if (read_whole(j->pdfpath.data, &pdf)) {
		error("%s printed no PDF of '%s': %s", opt->browser,
		      j->page->html, strerror(errno));
		goto out;
	}
	if (pdf_normalize(pdf.data, pdf.len, prefix, j->dir, j->page->year,
			  &norm)) {
		error("%s printed '%s' into something not a PDF "
		      "(%zu bytes)", opt->browser, j->page->html, pdf.len);
		goto out;
	}
	ret = site_write(s, j->page->pdf, norm.data, norm.len);
out:
	buf_release(&pdf);
	buf_release(&norm);
	buf_release(&why);
	return ret;
}

int
pdf_write(struct site *s, const struct pdf_page *pages, size_t n,
	  const struct pdf_options *opt)
{
	char *staged = file_realpath(site_root(s));
	char *published = file_realpath(site_outdir(s));
	struct buf print = BUF_INIT, prefix = BUF_INIT, path = BUF_INIT;
	struct job *jobs = xcalloc(n ? n : 1, sizeof(*jobs));
	size_t i, next = 0, running = 0, printed = 0, max = opt->jobs > 0 ?
		(size_t)opt->jobs : 1;
	int ret = 0;

	if (!staged || !published) {
		ret = error("cannot find the staged site: %s",
			    strerror(errno));
		goto out;
	}
	/* Beside the staged tree, in the staging folder removed with it. */
	buf_addstr(&print, staged);
	*strrchr(print.data, '/') = '\0';
	print.len = strlen(print.data);
	BUF_ADDLIT(&print, "/print");
	file_url(&prefix, print.data);
	buf_addch(&prefix, '/');
	for (i = 0; i < n && !ret; i++) {
		struct job *j = &jobs[i];

		j->page = &pages[i];
		j->dir = folder_of(pages[i].html);
		buf_init(&j->pdfpath);
		buf_init(&j->logpath);
		j->kept = keep_published(s, staged, published, j->page,
					 j->dir);
		if (j->kept)
			continue;
		printed++;
		buf_addf(&j->pdfpath, "%s/%s", print.data, pages[i].pdf);
		buf_addf(&j->logpath, "%s/browser-%zu.log", print.data, i);
		buf_reset(&path);
		buf_addf(&path, "%s/%sfigures", print.data, j->dir);
		ret = mkdirs(path.data);
		if (!ret)
			ret = link_file(print.data, staged, published,
					pages[i].html);
		if (!ret)
			ret = link_figures(print.data, staged, published,
					   published, j->dir);
		if (!ret)
			ret = link_figures(print.data, staged, published,
					   staged, j->dir);
	}
	if (!ret && printed)
		ret = link_file(print.data, staged, published, "style.css");

	while (!ret && (next < n || running)) {
		struct timespec nap = { 0, 20 * 1000 * 1000 };

		while (!ret && running < max && next < n &&
		       !diag_interrupted()) {
			struct job *j = &jobs[next];
			int err;

			if (j->kept) {
				next++;
				continue;
			}
			err = start(j, opt, print.data, next);
			next++;
			if (err == ENOENT)
				ret = error("cannot run '%s': %s; install "
					    "Chromium with: sudo apt-get "
					    "install -y chromium (or name "
					    "the browser in ULTIMATE_CHROMIUM)",
					    opt->browser, strerror(err));
			else if (err)
				ret = error("cannot start '%s': %s",
					    opt->browser, diag_strerror(err));
			else
				running++;
		}
		for (i = 0; i < next && !ret; i++) {
			struct job *j = &jobs[i];
			double t;
			int status;

			if (!j->pid)
				continue;
			if (ended(j, &status)) {
				running--;
				ret = finish(s, j, status, prefix.data, opt);
				continue;
			}
			t = timing_now() - j->started;
			if (diag_interrupted() && !j->killed) {
				kill(-j->pid, SIGKILL);
				j->killed = 1;
			} else if (j->stop_at < 0 && t >= opt->timeout) {
				kill(-j->pid, SIGTERM);
				j->stop_at = t;
				j->timed_out = 1;
			} else if (j->stop_at >= 0 && !j->killed &&
				   t >= j->stop_at + GRACE_SECONDS) {
				kill(-j->pid, SIGKILL);
				j->killed = 1;
			}
		}
		if (diag_interrupted() && !running)
			ret = -1;
		if (!ret && running)
			nanosleep(&nap, NULL);
	}
out:
	for (i = 0; i < n; i++) {
		stop(&jobs[i]);
		free(jobs[i].dir);
		buf_release(&jobs[i].pdfpath);
		buf_release(&jobs[i].logpath);
	}
	free(jobs);
	free(staged);
	free(published);
	buf_release(&print);
	buf_release(&prefix);
	buf_release(&path);
	return ret;
}
