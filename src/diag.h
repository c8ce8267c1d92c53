#ifndef DIAG_H
#define DIAG_H

#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

struct buf;

/*
 * Diagnostics: "file:line:col: error: message" for problems in input
 * files, "ultimate: error: ..." for the rest (jq src/locfile.c, git
 * usage.c). Positions are byte offsets into a srcfile; line and column
 * (both 1-based, the column counted in bytes) are computed only when a
 * message is printed.
 */
struct srcfile {
	char *name;		/* as given by the user, owned */
	char *data;		/* contents, NUL-terminated, owned */
	size_t len;
	int show_source;	/* print the line and a caret under errors */
	/*
	 * A piece of another file (srcfile_piece()): errors located in it
	 * go to relocate() with their byte offset and message, which
	 * prints them where the piece came from; NULL: printed here.
	 */
	int (*relocate)(const void *ctx, size_t off, const char *msg);
	const void *relocate_ctx;	/* borrowed */
};

struct srcloc {
	const struct srcfile *file;	/* borrowed; NULL for no location */
	size_t off, len;
};

/*
 * Reads path into a new srcfile: a regular file (file.h), inside one of
 * the folders given to srcfile_confine() when any was. Returns NULL and
 * prints "ultimate: error: cannot open 'path': reason" on failure.
 * Free with srcfile_free().
 */
struct srcfile *srcfile_read(const char *path);
/*
 * The same, quiet: NULL with errno set (ENOENT: no such file; EXDEV:
 * leads outside every folder given; see file_strerror()).
 */
struct srcfile *srcfile_load(const char *path);
/*
 * From now on srcfile_read() and srcfile_load() read only files that lie
 * in dir or another folder given, once symbolic links are resolved: a
 * link in data/ or templates/ to /etc/passwd is refused.
 */
void srcfile_confine(const char *dir);
/*
 * From now on, when srcfile_read() cannot open a file under dir, its
 * error ends with "(note)": how dir was chosen and how to choose another
 * ("data folder 'data', found in the working directory; choose another
 * with -d DIR or ULTIMATE_DATA=DIR"). dir and note are copied.
 */
void srcfile_note_folder(const char *dir, const char *note);
/* Forgets the folders given to srcfile_confine() and their notes. */
void srcfile_confine_release(void);
/* Makes a srcfile from memory (copied); for tests and generated text. */
struct srcfile *srcfile_from_mem(const char *name, const char *data,
				 size_t len);
void srcfile_free(struct srcfile *f);
/*
 * A srcfile of the len bytes at data (copied), cut out of another file
 * and unquoted on the way (a CSV cell: "" read as "), whose offsets
 * only its reader can map back: every error located in it is handed to
 * relocate(ctx, off, message) instead of printed, which prints and
 * counts it where it is in that file (table_error_in()) and returns
 * -1. ctx must outlive the srcfile. Free with srcfile_free().
 */
struct srcfile *srcfile_piece(const char *data, size_t len,
			      int (*relocate)(const void *ctx, size_t off,
					      const char *msg),
			      const void *ctx);
/*
 * Checks that f is text: valid UTF-8 without NUL bytes. Returns 0, or -1
 * after an error at the first bad byte.
 */
int srcfile_check_text(const struct srcfile *f);
/* Length of the longest prefix of p[0..len) that is UTF-8 without NUL. */
size_t utf8_valid_prefix(const void *p, size_t len);

/* Resolves off to a 1-based line and column. */
void srcfile_locate(const struct srcfile *f, size_t off, size_t *line,
		    size_t *col);

/*
 * Prints "file:line:col: error: message" (or "ultimate: error: message"
 * when loc or loc->file is NULL), counts the error, and returns -1 so
 * that callers can write "return error_at(...)".
 */
int error_at(const struct srcloc *loc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * The same with a va_list (as vprintf() is to printf()), for a module's
 * own error function that finds the location and passes its arguments
 * on. ap is used up, as by vprintf().
 */
int verror_at(const struct srcloc *loc, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* Same with an explicit line and column (for CSV positions). */
int error_at_line(const char *file, size_t line, size_t col,
		  const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * strerror(err), saying for EMFILE what happened and what to do: "Too
 * many open files (too few file descriptors: raise the limit, ulimit
 * -n)", so that running out of them is not taken for a fault of the
 * program that could not be started or the folder that could not be read.
 */
const char *diag_strerror(int err);
void die(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

/*
 * Writes text from outside (lines another program printed) to stderr as
 * messages show user text: line breaks kept, terminal controls escaped
 * (ESC as \x1b, U+009B as \u009b).
 */
void diag_put_lines(const char *s);

/*
 * Writes s to fp as messages show user text: terminal controls and line
 * breaks escaped (for a line of the program's own output that quotes a
 * file name or a path).
 */
void diag_fputs(const char *s, FILE *fp);

/*
 * "ultimate: " and the message on one line of stderr, user text in it
 * escaped as in every message; counts no error. For usage errors, notes
 * and warnings that have no location.
 */
void diag_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Quiet mode counts errors but prints nothing: for fuzz targets, which
 * feed millions of bad inputs.
 */
void diag_set_quiet(int quiet);

/*
 * What the errors from now on are about, said after each: "the 2008
 * edition" gives "...: error: ... (in the 2008 edition)". NULL: nothing.
 * The string must live until it is replaced.
 */
void diag_set_context(const char *what);

/*
 * At most this many errors are printed in a run; the rest are counted
 * (and the count printed at the end by the caller).
 */
#define DIAG_MAX_SHOWN 25

/* Errors counted since start or the last diag_reset(). */
size_t diag_errors(void);
/* 1 once DIAG_MAX_SHOWN errors were printed: callers may skip the work
 * of wording more (suggestions of names). */
int diag_full(void);
void diag_reset(void);

/*
 * From diag_catch_signals() on, SIGINT, SIGTERM and SIGHUP no longer end
 * the process: the signal is recorded, and every stage polls
 * diag_interrupted() (the signal, or 0) and stops, so that the run can
 * clean up and leave its output folder as it was. From the signal on,
 * errors are counted but not printed. SIGXFSZ is ignored: past a
 * file-size limit a write fails (EFBIG), as on a full disk.
 */
void diag_catch_signals(void);
int diag_interrupted(void);
/*
 * Adds those signals to set (add != 0) or removes them from it, for
 * code that blocks them for a while (publishing) or waits for them
 * (pselect()).
 */
void diag_signal_set(sigset_t *set, int add);
/*
 * Sets up at (initialized by the caller) for a helper program started
 * with posix_spawn (gnuplot, the PDF browser): no signal blocked, the
 * signals this program catches or ignores (and SIGPIPE, SIGCHLD,
 * SIGXFSZ) back to their defaults, and a process group of its own, so
 * that stopping the group stops the helpers it starts too.
 */
void diag_child_attr(posix_spawnattr_t *at);

/* A broken invariant of ours, not the user's. */
#define BUG(...) bug_fl(__FILE__, __LINE__, __VA_ARGS__)
void bug_fl(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), noreturn));

#endif
