/*
 * probes_view.c - the USDT probes of a mount's process (probes_view.h).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "pattern.h"
#include "probes_view.h"
#include "rules_files.h"
#include "usdt_notes.h"
#include "usdt_probes.h"

void evt_probes_view_load(struct evt_probes_view *pv, int pid)
{
	char err[PATH_MAX + 200];
	bool *off;

	memset(pv, 0, sizeof(*pv));
	pv->pid = pid;
	if (evt_usdt_files_of_process(pid, &pv->files, &pv->nfiles, err, sizeof(err)))
		return;
	if (evt_usdt_paths((const char *const *)pv->files, pv->nfiles, &pv->paths,
			   &pv->n) || !pv->n)
		return;
	off = calloc(pv->n, sizeof(*off));
	if (off)
		pv->root = evt_tree_build_paths((const char *const *)pv->paths, off, pv->n);
	free(off);
}

void evt_probes_view_free(struct evt_probes_view *pv)
{
	evt_tree_free(pv->root);
	evt_usdt_files_free(pv->paths, pv->n);
	evt_usdt_files_free(pv->files, pv->nfiles);
	memset(pv, 0, sizeof(*pv));
}

void evt_probes_view_states(struct evt_probes_view *pv, const struct evt_rundir *rd)
{
	enum evt_tristate *states;
	struct evt_rules *r;
	char err[PATH_MAX + 300];
	unsigned i;

	if (!pv->root || !(states = calloc(pv->n, sizeof(*states))))
		return;
	r = malloc(sizeof(*r));
	if (r && rd->fd >= 0 && evt_default_rules_kernel(rd, pv->pid, r, err, sizeof(err)))
		r->npatterns = 0;
	for (i = 0; i < pv->n; i++)
		states[i] = r && rd->fd >= 0 &&
			    evt_rules_decide(r, pv->paths[i], NULL, NULL,
					     (uint32_t)pv->pid) == 1 ?
			    EVT_STATE_ON : EVT_STATE_OFF;
	evt_tree_refold(pv->root, states);
	free(states);
	free(r);
}

void evt_probes_view_format(const struct evt_probes_view *pv, const char *path,
			    FILE *f)
{
	struct evt_usdt_probe *p;
	char err[PATH_MAX + 200], at[2 * EVT_USDT_NAME_MAX + 8];
	unsigned i, k, n;

	for (i = 0; i < pv->nfiles; i++) {
		if (evt_usdt_probes(pv->files[i], &p, &n, err, sizeof(err)))
			continue;
		for (k = 0; k < n; k++) {
			snprintf(at, sizeof(at), "usdt/%s/%s", p[k].provider, p[k].name);
			if (evt_pattern_match(path, at))
				evt_usdt_probe_write(f, pv->files[i], &p[k]);
		}
		free(p);
	}
}

int evt_probes_view_set(const struct evt_probes_view *pv, const struct evt_rundir *rd,
			const char *path, bool on, char *err, size_t err_size)
{
	return evt_default_rules_add(rd, on, (uint32_t)pv->pid, path, err, err_size);
}
