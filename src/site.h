#ifndef SITE_H
#define SITE_H

#include <stddef.h>
#include <stdint.h>

/*
 * The write stage: every output file of a run is first written into a
 * staging folder inside the output folder (out/.staging-XXXXXX, on the
 * same file system), and only when the whole run has succeeded is each
 * file renamed into place. A run that fails before site_publish() leaves
 * the previous out/ exactly as it was. Files whose content did not change
 * are not replaced, so their timestamps stay (make and browsers see no
 * change).
 */
struct site;

/*
 * Creates outdir if needed and a staging folder in it. Returns NULL after
 * printing "ultimate: error: cannot ..." when outdir is not writable.
 * From then on SIGINT, SIGTERM and SIGHUP no longer kill the process:
 * they are recorded (site_interrupted()), the next write fails, and the
 * caller aborts the site, so out/ stays as it was and nothing is left
 * behind. During site_publish() they wait until publishing is done.
 */
struct site *site_open(const char *outdir);
/*
 * Writes data to relpath (a relative path with '/' separators, no "..")
 * in the staging folder, creating subfolders; when outdir/relpath holds
 * these bytes already, nothing is written and the file stays as it is.
 * Returns 0, or -1 after printing an error (a full disk is caught here).
 */
int site_write(struct site *s, const char *relpath, const void *data,
	       size_t len);
/*
 * Keeps outdir/relpath as it is, the caller having just read its bytes
 * (data): it is published unchanged, and listed in the manifest.
 */
void site_keep(struct site *s, const char *relpath, const void *data,
	       size_t len);
/* 1 when relpath was written into the staging folder by this run. */
int site_staged(const struct site *s, const char *relpath);
/*
 * Moves every staged file into outdir, removes the staging folder and
 * frees s. Returns 0 or -1 after printing an error.
 */
int site_publish(struct site *s);
/* Removes the staging folder and everything in it, and frees s. */
void site_abort(struct site *s);
/*
 * The no-op check: 1 when outdir/.manifest records the same inputs key
 * and every file it lists is there with the content it records, so that
 * a run would write the same bytes; else 0.
 */
int site_uptodate(const char *outdir, uint64_t inputs);
/*
 * Records the inputs key for the manifest that site_publish() writes
 * (every published file with its content key). Files listed in the old
 * manifest that this run did not write are removed on publishing.
 */
void site_set_inputs(struct site *s, uint64_t inputs);

/* The signal that interrupted the run, or 0. */
int site_interrupted(void);
/* The staging folder (for tools that write there themselves). */
const char *site_staging(const struct site *s);
/*
 * Takes a file that another program wrote at relpath in the staging
 * folder into the set to publish. Returns 0, or -1 after printing an
 * error when it is not there.
 */
int site_adopt(struct site *s, const char *relpath);
/* Makes the folders of relpath in the staging folder; 0 or -1. */
int site_mkdirs(struct site *s, const char *relpath);

#endif
