/*
 * compare.h - the statistics evtrace diff compares two runs with.
 *
 * A quantile q of run B is compared to run A's by how many of B's
 * samples exceed A's q-quantile: with one distribution behind both,
 * about (1 - q) of them, the spread being that of B's sample and of the
 * quantile's own estimate from A's (q(1 - q)(1/na + 1/nb)); two-sided,
 * a normal approximation, untested with fewer than
 * EVT_COMPARE_MIN_SAMPLES samples a side.  It takes a run's samples as
 * drawn alike, which one run's are: the difference between two runs of
 * one program (the machine's other work then) it does not see, and only
 * several runs a side measure that: their figures are compared by
 * Welch's t (evt_runs_p), each side's variance no less than its runs'
 * own sampling variance (evt_mean_var, evt_quantile_var).
 */
#ifndef EVT_READER_COMPARE_H
#define EVT_READER_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#define EVT_COMPARE_MIN_SAMPLES 20

/* The q-quantile (0 < q < 1) of n sorted values, nearest rank; 0 when n
 * is 0. */
uint64_t evt_quantile(const uint64_t *sorted, size_t n, double q);
/* The mean of n values (0 when none). */
double evt_mean(const uint64_t *v, size_t n);
/* The sampling variance of the mean of n values (0 under 2 values). */
double evt_mean_var(const uint64_t *v, size_t n);
/* The sampling variance of the q-quantile of n sorted values, from the
 * values at the ranks its own rank spreads to (distribution-free); 0
 * under 2 values. */
double evt_quantile_var(const uint64_t *sorted, size_t n, double q);
/* The p-value of "b's q-quantile is a's", or -1 (too few samples). */
double evt_quantile_p(const uint64_t *a, size_t na, const uint64_t *b,
		      size_t nb, double q);
/*
 * The same of a few values a side, such as a figure of each of several
 * runs (Welch's t with Student's distribution, not the normal one, which
 * few values would make too quick to say "different"); -1 with fewer
 * than 2 a side.  least_a and least_b: the least variance of one value
 * of each side (its runs' mean sampling variance; 0: none known), which
 * a side's values that happen to agree do not go under.
 */
double evt_runs_p(const double *a, size_t na, double least_a, const double *b,
		  size_t nb, double least_b);

#endif
