/*
 * Diagnostics for every stage: reads source files for location lookup and
 * writes messages to stderr. Nothing here decides whether to stop; callers
 * count errors with diag_errors() and stop at the end of their phase.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diag.h"
#include "file.h"
#include "xalloc.h"
#include "banned.h"

static size_t nerrors;
static int quiet;
/* Said after every error message: "the 2008 edition", or NULL. */
static const char *context;
/*
 * Past DIAG_MAX_SHOWN errors, the rest are counted, not printed: 50,000
 * unknown names make one screen of messages and a count, not 10,000
 * lines (and their suggestions are not even looked for: diag_full()).
 */
static int full;

int
diag_full(void)
{
	return full;
}

/*
 * Counts an error; 1 when it is to be printed. Once the run is
 * interrupted, none is: a stage stopped halfway may take what it has not
 * reached yet for missing (a citation before the references list it
 * never got to), and a stopped run says only that it stopped (main.c).
 */
static int
count_error(void)
{
	nerrors++;
	if (quiet || full || diag_interrupted())
		return 0;
	if (nerrors > DIAG_MAX_SHOWN) {
		full = 1;
		fprintf(stderr, "ultimate: error: more than %d errors; the "
			"rest are counted, not shown\n", DIAG_MAX_SHOWN);
		return 0;
	}
	return 1;
}

void
diag_set_context(const char *what)
{
	context = what;
}

/*
 * User text in messages (a cell, a template line, a file name) is shown,
 * not obeyed: a terminal takes ESC ] 0 ; ... BEL for a window title and
 * ESC [ 2 J for clearing the screen, and a line break would split a
 * message's one line. Of the bytes at s[i..len), the first unit as
 * printed: returns its byte count and leaves in esc its escape, or ""
 * when it prints as is. LF and CR are \n and \r, the other C0 controls
 * but the tab, and DEL, \xHH; the C1 controls U+0080 to U+009F \u00HH;
 * a byte that is not UTF-8 (which some terminals take for a C1 control)
 * \xHH.
 */
static size_t
unit_at(const char *s, size_t len, size_t i, char esc[8])
{
	unsigned char c = (unsigned char)s[i];
	size_t n = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 :
		   c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;

	esc[0] = '\0';
	if (n == 1) {
		if (c == '\n' || c == '\r')
			snprintf(esc, 8, "\\%c", c == '\n' ? 'n' : 'r');
		else if ((c < 0x20 && c != '\t') || c == 0x7f)
			snprintf(esc, 8, "\\x%02x", c);
		return 1;
	}
	if (!n || len - i < n || utf8_valid_prefix(s + i, n) != n) {
		snprintf(esc, 8, "\\x%02x", c);
		return 1;
	}
	if (c == 0xc2 && (unsigned char)s[i + 1] <= 0x9f)
		snprintf(esc, 8, "\\u%04x", (unsigned char)s[i + 1]);
	return n;
}

/*
 * Writes the len bytes at s to fp, escaped as unit_at() says: the runs
 * between escapes in one call each, since stderr has no buffer (a call
 * per character made 13 MB of messages take a minute).
 */
static void
put_escaped_to(FILE *fp, const char *s, size_t len)
{
	size_t i = 0, run = 0, n;
	char esc[8];

	while (i < len) {
		n = unit_at(s, len, i, esc);
		if (*esc) {
			fwrite(s + run, 1, i - run, fp);
			fputs(esc, fp);
			run = i + n;
		}
		i += n;
	}
	fwrite(s + run, 1, len - run, fp);
}

static void
put_escaped(const char *s, size_t len)
{
	put_escaped_to(stderr, s, len);
}

void
diag_fputs(const char *s, FILE *fp)
{
	put_escaped_to(fp, s, strlen(s));
}

static void
put_escaped_str(const char *s)
{
	put_escaped(s, strlen(s));
}

void
diag_put_lines(const char *s)
{
	size_t n;

	while (*s) {
		n = strcspn(s, "\n");
		put_escaped(s, n);
		if (s[n] == '\n')
			fputc('\n', stderr);
		s += n + (s[n] == '\n');
	}
}

/* Ends an error's first line: the context, then the line break. */
static void
end_line(void)
{
	if (context) {
		fputs(" (in ", stderr);
		put_escaped_str(context);
		fputc(')', stderr);
	}
	fputc('\n', stderr);
}

void
diag_set_quiet(int q)
{
	quiet = q;
}

struct srcfile *
srcfile_from_mem(const char *name, const char *data, size_t len)
{
	struct srcfile *f = xcalloc(1, sizeof(*f));

	f->name = xstrdup(name);
	f->data = xstrndup(data, len);
	f->len = len;
	return f;
}

struct srcfile *
srcfile_piece(const char *data, size_t len,
	      int (*relocate)(const void *ctx, size_t off, const char *msg),
	      const void *ctx)
{
	struct srcfile *f = srcfile_from_mem("(piece)", data, len);

	f->relocate = relocate;
	f->relocate_ctx = ctx;
	return f;
}

/* The folders inputs must lie in (srcfile_confine()), resolved. */
static char **roots;
static size_t nroots, roots_cap;

void
srcfile_confine(const char *dir)
{
	char *r = file_realpath(dir);

	/* A folder that does not exist holds nothing: keep its name. */
	roots = xgrow(roots, &roots_cap, nroots + 1, sizeof(*roots));
	roots[nroots++] = r ? r : xstrdup(dir);
}

/* Folders with a note for "cannot open" errors (srcfile_note_folder()). */
static struct folder_note {
	char *dir, *note;
} *notes;
static size_t nnotes, notes_cap;

void
srcfile_note_folder(const char *dir, const char *note)
{
	notes = xgrow(notes, &notes_cap, nnotes + 1, sizeof(*notes));
	notes[nnotes].dir = xstrdup(dir);
	notes[nnotes++].note = xstrdup(note);
}

/* The note of the folder path lies in, as given (no resolving), or NULL. */
static const char *
note_of(const char *path)
{
	size_t i, n;

	for (i = 0; i < nnotes; i++) {
		n = strlen(notes[i].dir);
		if (!strncmp(path, notes[i].dir, n) &&
		    (path[n] == '/' || (n && notes[i].dir[n - 1] == '/')))
			return notes[i].note;
	}
	return NULL;
}

void
srcfile_confine_release(void)
{
	size_t i;

	for (i = 0; i < nroots; i++)
		free(roots[i]);
	free(roots);
	roots = NULL;
	nroots = roots_cap = 0;
	for (i = 0; i < nnotes; i++) {
		free(notes[i].dir);
		free(notes[i].note);
	}
	free(notes);
	notes = NULL;
	nnotes = notes_cap = 0;
}

struct srcfile *
srcfile_load(const char *path)
{
	struct buf b = BUF_INIT;
	struct srcfile *f;
	size_t i;
	int err = 0;

	for (i = 0; i < nroots; i++) {
		if (!file_confined(path, roots[i]))
			break;
		/* Leading outside this root; maybe inside another. */
		if (errno != EXDEV || !err)
			err = errno;
	}
	if (nroots && i == nroots) {
		errno = err;
		return NULL;
	}
	if (buf_read_file(&b, path)) {
		err = errno;
		buf_release(&b);
		errno = err;
		return NULL;
	}
	f = xcalloc(1, sizeof(*f));
	f->name = xstrdup(path);
	f->data = buf_detach(&b, &f->len);
	return f;
}

size_t
utf8_valid_prefix(const void *p, size_t len)
{
	const unsigned char *s = p;
	size_t i = 0;

	while (i < len) {
		unsigned c = s[i];
		size_t n, k;
		uint32_t cp;

		if (c == 0) {
			return i;
		} else if (c < 0x80) {
			i++;
			continue;
		} else if (c >= 0xc2 && c <= 0xdf) {
			n = 1, cp = c & 0x1f;
		} else if (c >= 0xe0 && c <= 0xef) {
			n = 2, cp = c & 0x0f;
		} else if (c >= 0xf0 && c <= 0xf4) {
			n = 3, cp = c & 0x07;
		} else {
			return i;
		}
		if (len - i <= n)
			return i;
		for (k = 1; k <= n; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return i;
			cp = cp << 6 | (s[i + k] & 0x3f);
		}
		if ((n == 2 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
		    (n == 3 && (cp < 0x10000 || cp > 0x10ffff)))
			return i;
		i += n + 1;
	}
	return i;
}

int
srcfile_check_text(const struct srcfile *f)
{
	size_t ok = utf8_valid_prefix(f->data, f->len);
	struct srcloc loc = { f, ok, 1 };

	if (ok == f->len)
		return 0;
	if (!f->data[ok])
		return error_at(&loc, "NUL byte: a text file was expected");
	return error_at(&loc, "invalid UTF-8 byte 0x%02x",
			(unsigned char)f->data[ok]);
}

struct srcfile *
srcfile_read(const char *path)
{
	struct srcfile *f = srcfile_load(path);

	if (!f) {
		const char *note = note_of(path);

		error("cannot open '%s': %s%s%s%s", path, file_strerror(errno),
		      note ? " (" : "", note ? note : "", note ? ")" : "");
	}
	return f;
}

void
srcfile_free(struct srcfile *f)
{
	if (!f)
		return;
	free(f->name);
	free(f->data);
	free(f);
}

/*
 * Counts lines up to off: a line ends with LF, CR LF or a lone CR, as
 * the CSV reader counts them. Columns on the first line do not count a
 * byte-order mark, which editors do not show. Linear, but only run when
 * a message is printed, and messages per file are capped.
 */
void
srcfile_locate(const struct srcfile *f, size_t off, size_t *line, size_t *col)
{
	size_t i, start = 0, n = 1;

	if (off > f->len)
		off = f->len;
	if (off >= 3 && !memcmp(f->data, "\xef\xbb\xbf", 3))
		start = 3;
	for (i = 0; i < off; i++)
		if (f->data[i] == '\n' || (f->data[i] == '\r' &&
		    (i + 1 == f->len || f->data[i + 1] != '\n')))
			n++, start = i + 1;
	*line = n;
	*col = off - start + 1;
}

/* Source lines longer than this are shown as a window around the error. */
#define SHOW_WIDTH 256

/* Moves off back to the start of the UTF-8 character it is in. */
static size_t
char_start(const char *s, size_t off, size_t min)
{
	while (off > min && ((unsigned char)s[off] & 0xc0) == 0x80)
		off--;
	return off;
}

/*
 * Prints the source line holding loc and a caret run under it; of a long
 * line (a template of 50,000 slots on one line), only SHOW_WIDTH bytes
 * around loc, with "..." where it is cut.
 */
static void
show_source(const struct srcloc *loc)
{
	const struct srcfile *f = loc->file;
	size_t line, col, start, end, i, n, ws, we, k, w;
	char esc[8];

	srcfile_locate(f, loc->off, &line, &col);
	start = loc->off - (col - 1);
	end = start;
	while (end < f->len && f->data[end] != '\n' && f->data[end] != '\r')
		end++;
	ws = start;
	we = end;
	if (end - start > SHOW_WIDTH) {
		if (loc->off > start + SHOW_WIDTH / 3)
			ws = char_start(f->data, loc->off - SHOW_WIDTH / 3,
					start);
		if (end - ws > SHOW_WIDTH)
			we = char_start(f->data, ws + SHOW_WIDTH, ws);
	}
	fprintf(stderr, "    %s", ws > start ? "..." : "");
	put_escaped(f->data + ws, we - ws);
	fprintf(stderr, "%s\n    %s", we < end ? "..." : "",
		ws > start ? "   " : "");
	/*
	 * As wide as the text above: an escape's width, a tab a tab, a
	 * character one column, however many bytes it takes (µ: two).
	 */
	for (i = ws; i < loc->off && i < we; i += k) {
		k = unit_at(f->data, we, i, esc);
		for (w = *esc ? strlen(esc) : 1; w > 0; w--)
			fputc(f->data[i] == '\t' ? '\t' : ' ', stderr);
	}
	n = loc->len ? loc->len : 1;
	if (loc->off + n > we && we > loc->off)
		n = we - loc->off;
	for (; i < loc->off + n && i < we; i += k) {
		k = unit_at(f->data, we, i, esc);
		for (w = *esc ? strlen(esc) : 1; w > 0; w--)
			fputc('^', stderr);
	}
	/* At the end of the line (a missing closing brace): one caret. */
	if (loc->off >= we)
		for (; n > 0; n--)
			fputc('^', stderr);
	fputc('\n', stderr);
}

/* Prints a message whose values quote user text, escaped. */
static void
put_message(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

static void
put_message(const char *fmt, va_list ap)
{
	struct buf msg = BUF_INIT;

	buf_vaddf(&msg, fmt, ap);
	put_escaped(msg.data, msg.len);
	buf_release(&msg);
}

/*
 * The same without allocating, for die() (which xmalloc() calls when
 * memory runs out): past 4 KiB the message is cut.
 */
static void
put_message_fixed(const char *fmt, va_list ap)
	__attribute__((format(printf, 1, 0)));

static void
put_message_fixed(const char *fmt, va_list ap)
{
	char msg[4096];
	int n = vsnprintf(msg, sizeof(msg), fmt, ap);

	if (n > 0)
		put_escaped(msg, (size_t)n < sizeof(msg) ? (size_t)n :
			    sizeof(msg) - 1);
}

static void
vreport(const struct srcloc *loc, const char *kind, const char *fmt,
	va_list ap) __attribute__((format(printf, 3, 0)));

static void
vreport(const struct srcloc *loc, const char *kind, const char *fmt,
	va_list ap)
{
	if (quiet)
		return;
	if (loc && loc->file) {
		size_t line, col;

		srcfile_locate(loc->file, loc->off, &line, &col);
		put_escaped_str(loc->file->name);
		fprintf(stderr, ":%zu:%zu: %s: ", line, col, kind);
	} else {
		fprintf(stderr, "ultimate: %s: ", kind);
	}
	put_message(fmt, ap);
	end_line();
	if (loc && loc->file && loc->file->show_source)
		show_source(loc);
}

int
verror_at(const struct srcloc *loc, const char *fmt, va_list ap)
{
	/* Where the piece came from prints and counts it. */
	if (loc && loc->file && loc->file->relocate) {
		struct buf msg = BUF_INIT;

		buf_vaddf(&msg, fmt, ap);
		loc->file->relocate(loc->file->relocate_ctx, loc->off,
				    msg.data);
		buf_release(&msg);
		return -1;
	}
	if (count_error())
		vreport(loc, "error", fmt, ap);
	return -1;
}

int
error_at(const struct srcloc *loc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror_at(loc, fmt, ap);
	va_end(ap);
	return -1;
}

int
error_at_line(const char *file, size_t line, size_t col, const char *fmt, ...)
{
	va_list ap;

	if (!count_error())
		return -1;
	put_escaped_str(file);
	fprintf(stderr, ":%zu:%zu: error: ", line, col);
	va_start(ap, fmt);
	put_message(fmt, ap);
	va_end(ap);
	end_line();
	return -1;
}

void
diag_say(const char *fmt, ...)
{
	va_list ap;

	fputs("ultimate: ", stderr);
	va_start(ap, fmt);
	put_message(fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int
error(const char *fmt, ...)
{
	va_list ap;

	if (!count_error())
		return -1;
	va_start(ap, fmt);
	vreport(NULL, "error", fmt, ap);
	va_end(ap);
	return -1;
}

const char *
diag_strerror(int err)
{
	if (err == EMFILE)
		return "Too many open files (too few file descriptors: raise "
		       "the limit, ulimit -n)";
	return strerror(err);
}

void
die(const char *fmt, ...)
{
	va_list ap;

	fputs("ultimate: fatal: ", stderr);
	va_start(ap, fmt);
	put_message_fixed(fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* ------------------------------------------------------------ signals */

static volatile sig_atomic_t caught;

/* The signals that end a run. */
static const int run_signals[] = { SIGINT, SIGTERM, SIGHUP };
#define NRUN_SIGNALS (sizeof(run_signals) / sizeof(run_signals[0]))

static void
on_signal(int sig)
{
	caught = sig;
}

void
diag_catch_signals(void)
{
	struct sigaction sa;
	size_t i;

	/*
	 * No SA_RESTART: a blocking call (waiting for gnuplot or for the
	 * lock) returns EINTR, and the run stops at once.
	 */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < NRUN_SIGNALS; i++)
		sigaction(run_signals[i], &sa, NULL);
	/*
	 * A file-size limit (ulimit -f) is a full disk: the write fails
	 * (EFBIG) and is said, instead of the signal ending the run
	 * without a word and leaving its staging folder.
	 */
	sa.sa_handler = SIG_IGN;
	sigaction(SIGXFSZ, &sa, NULL);
}

void
diag_signal_set(sigset_t *set, int add)
{
	size_t i;

	for (i = 0; i < NRUN_SIGNALS; i++) {
		if (add)
			sigaddset(set, run_signals[i]);
		else
			sigdelset(set, run_signals[i]);
	}
}

void
diag_child_attr(posix_spawnattr_t *at)
{
	sigset_t none, dflt;

	sigemptyset(&none);
	/* Ours are caught or ignored here; in the helper, the defaults. */
	sigemptyset(&dflt);
	diag_signal_set(&dflt, 1);
	sigaddset(&dflt, SIGPIPE);
	sigaddset(&dflt, SIGCHLD);
	sigaddset(&dflt, SIGXFSZ);
	posix_spawnattr_setsigmask(at, &none);
	posix_spawnattr_setsigdefault(at, &dflt);
	posix_spawnattr_setpgroup(at, 0);
	posix_spawnattr_setflags(at, POSIX_SPAWN_SETPGROUP |
				 POSIX_SPAWN_SETSIGMASK |
				 POSIX_SPAWN_SETSIGDEF);
}

int
diag_interrupted(void)
{
	return caught;
}

size_t
diag_errors(void)
{
	return nerrors;
}

void
diag_reset(void)
{
	nerrors = 0;
	full = 0;
}

void
bug_fl(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "ultimate: BUG: %s:%d: ", file, line);
	va_start(ap, fmt);
	put_message_fixed(fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}
