/*
 * compare.c - quantile and mean tests between two runs (compare.h).
 */
#include <math.h>

#include "compare.h"

uint64_t evt_quantile(const uint64_t *sorted, size_t n, double q)
{
	size_t rank;

	if (!n)
		return 0;
	rank = (size_t)ceil(q * (double)n);
	return sorted[rank ? rank - 1 : 0];
}

double evt_mean(const uint64_t *v, size_t n)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += (double)v[i];
	return n ? sum / (double)n : 0;
}

/* Two-sided p of a standard normal statistic. */
static double two_sided(double z)
{
	return erfc(fabs(z) / sqrt(2.0));
}

double evt_quantile_p(const uint64_t *a, size_t na, const uint64_t *b,
		      size_t nb, double q)
{
	uint64_t at = evt_quantile(a, na, q);
	size_t above = 0, i;
	double share, sd;

	if (na < EVT_COMPARE_MIN_SAMPLES || nb < EVT_COMPARE_MIN_SAMPLES)
		return -1;
	for (i = 0; i < nb; i++)
		above += b[i] > at;
	/* (a's own share above its quantile, ties counted as a's rank
	 * leaves them: at most 1 - q) */
	for (i = 0, share = 0; i < na; i++)
		share += a[i] > at;
	share /= (double)na;
	sd = sqrt(q * (1 - q) * (1.0 / (double)na + 1.0 / (double)nb));
	return two_sided(((double)above / (double)nb - share) / sd);
}

double evt_mean_p(const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
	double ma = evt_mean(a, na), mb = evt_mean(b, nb), va = 0, vb = 0, se;
	size_t i;

	if (na < EVT_COMPARE_MIN_SAMPLES || nb < EVT_COMPARE_MIN_SAMPLES)
		return -1;
	for (i = 0; i < na; i++)
		va += ((double)a[i] - ma) * ((double)a[i] - ma);
	for (i = 0; i < nb; i++)
		vb += ((double)b[i] - mb) * ((double)b[i] - mb);
	se = sqrt(va / (double)(na - 1) / (double)na + vb / (double)(nb - 1) / (double)nb);
	if (se == 0)
		return ma == mb ? 1 : 0;
	return two_sided((mb - ma) / se);
}
