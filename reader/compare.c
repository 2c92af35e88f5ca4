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

double evt_mean_var(const uint64_t *v, size_t n)
{
	double m = evt_mean(v, n), sum = 0;
	size_t i;

	if (n < 2)
		return 0;
	for (i = 0; i < n; i++)
		sum += ((double)v[i] - m) * ((double)v[i] - m);
	return sum / (double)(n - 1) / (double)n;
}

double evt_quantile_var(const uint64_t *sorted, size_t n, double q)
{
	/* The quantile's rank spreads by sqrt(n q (1 - q)) (a binomial count
	 * of the samples under it): half the width between the values that
	 * far either side of it is its standard error, whatever the
	 * distribution. */
	double spread = ceil(sqrt((double)n * q * (1 - q)));
	double rank = ceil(q * (double)n), lo = rank - spread, hi = rank + spread, se;

	if (n < 2)
		return 0;
	lo = lo < 1 ? 1 : lo;
	hi = hi > (double)n ? (double)n : hi;
	se = ((double)sorted[(size_t)hi - 1] - (double)sorted[(size_t)lo - 1]) / 2;
	return se * se;
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

/* The continued fraction of the regularized incomplete beta function
 * I_x(a, b), evaluated by Lentz's method. */
static double beta_fraction(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;
	int m;

	d = 1 / (fabs(d) < tiny ? tiny : d);
	h = d;
	for (m = 1; m <= 300; m++) {
		double step, num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));

		d = 1 + num * d;
		c = 1 + num / c;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		h *= d * c;
		num = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
		d = 1 + num * d;
		c = 1 + num / c;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		step = d * c;
		h *= step;
		if (fabs(step - 1) < 1e-14)
			break;
	}
	return h;
}

static double incomplete_beta(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	/* (the fraction converges quickly on this side of the mean) */
	if (x < (a + 1) / (a + b + 2))
		return front * beta_fraction(a, b, x) / a;
	return 1 - front * beta_fraction(b, a, 1 - x) / b;
}

double evt_runs_p(const double *a, size_t na, double least_a, const double *b,
		  size_t nb, double least_b)
{
	double ma = 0, mb = 0, va = 0, vb = 0, sa, sb, t, df;
	size_t i;

	if (na < 2 || nb < 2)
		return -1;
	for (i = 0; i < na; i++)
		ma += a[i] / (double)na;
	for (i = 0; i < nb; i++)
		mb += b[i] / (double)nb;
	for (i = 0; i < na; i++)
		va += (a[i] - ma) * (a[i] - ma) / (double)(na - 1);
	for (i = 0; i < nb; i++)
		vb += (b[i] - mb) * (b[i] - mb) / (double)(nb - 1);
	/* A run's figure varies at least by its own sampling: a few runs
	 * whose figures happen to agree (a tail set by the scheduler's
	 * quanta takes few values) do not make it certain. */
	sa = (va > least_a ? va : least_a) / (double)na;
	sb = (vb > least_b ? vb : least_b) / (double)nb;
	if (sa + sb == 0)
		return ma == mb ? 1 : 0;
	t = (mb - ma) / sqrt(sa + sb);
	df = (sa + sb) * (sa + sb) / (sa * sa / (double)(na - 1) + sb * sb / (double)(nb - 1));
	/* P(|T| >= |t|) for Student's T of df degrees */
	return incomplete_beta(df / 2, 0.5, df / (df + t * t));
}
