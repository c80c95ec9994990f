/*
 * Simulated annealing kernel: single-flip Metropolis sweeps over a geometric
 * β schedule, reads spread over a pthread pool. doc/solvers-sa.md describes
 * the schedule, the default β rule, the fast paths, threads and determinism.
 *
 * State of one read (per-thread buffers): x (one byte per variable) and the
 * local fields f_i = h_i + Σ_j J_ij x_j. Flipping i changes the energy by
 * ΔE_i = (1 − 2 x_i) f_i; an accepted flip adds ±J_ij to the fields of the
 * neighbours (O(degree), no branch on the sign), a rejected one costs O(1).
 * A sweep visits the variables in index order, one 32-bit random number r
 * per attempt.
 *
 * Field types: int32 when every weight times 2^s (s <= SA_INT_MAX_SHIFT) is
 * an integer and |ΔE| · 2^s stays below SA_INT_MAX_DE (weights then int16);
 * otherwise float32 when that loses nothing measurable at the coldest β
 * (see pick_kind), else double. With fewer than 65536 variables the columns
 * are uint16 and the rows are padded to a multiple of SA_ROW_PAD.
 *
 * Metropolis test: with t = β ΔE (β scaled by 2^−s on the integer path),
 * computed in double, and L(r) = −ln((r + ½) 2^−32), accept iff t < L(r).
 * That exact rule is the whole definition; the decision for attempt i is a
 * function of (ΔE_i, r_i) only. Two ways to evaluate it, always agreeing:
 *  - portable: two tables bracket L over the top SA_LOG_BITS bits of r; ln()
 *    runs only when t falls inside the bracket;
 *  - AVX2+FMA: 8 attempts at once. t in float32 and a polynomial L̃(r) with
 *    |L̃ − L| <= 1.2e−5 for every r (checked exhaustively), so t_f < L̃ − M
 *    proves acceptance and t_f > L̃ + M rejection (M = SA_MARGIN = 2^−13);
 *    the rare lanes in between take the exact test.
 * The random numbers come from 8 interleaved xoshiro128** lanes, one block
 * of 8 per 8 variables. The accepted lanes of a block are walked in order;
 * after a flip that changed the field of a later variable of the same block,
 * the rest of the block is re-decided with the same r: exactly the
 * sequential result. Samples are identical with and without AVX2.
 *
 * Lanes (run_lanes, lsweep_*): with at least SA_LANE_READS reads, reads run 8
 * at a time in the lanes of AVX2 registers, variable by
 * variable: lane g is read g, with its own generator and the same arithmetic
 * as alone (f += w · a, a in {−1, 0, +1}, an exact product), so the samples
 * are those of single reads, without a branch per accepted flip.
 *
 * Reads: read r seeds its stream from (seed, r) only, so its result does not
 * depend on the thread that runs it. The reads run on the worker pool of
 * every kernel (lib/common/pool.h): a unit is 8 reads in lanes while 8 are
 * left, then a single read, and workers take units in order and check the
 * pool's stop flag once per sweep; the calling thread waits, calls the
 * progress callback about every 100 ms and at the end (counting reads), and
 * watches the time limit. A unit taken after a stop runs no read. A read
 * interrupted by a stop ends as if its last sweep were the last one (its
 * lowest or its current state, see keep_lowest). A single read that reaches
 * the target stops at once, mid-sweep; reads in lanes check at the end of each
 * sweep (each read tracks its energy), and its reads stop there. Rows of
 * the reads that ran are compacted to the front in read order; energies are
 * recomputed with qubo_model_energy.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "sa_impl.h"

/* ---------------------------------------------------------------------------
 * One read.
 */

static void random_state(sa_worker *wk, size_t n)
{
	uint32_t r[SA_LANES];
	size_t i = 0;
	int l, k;

	while (i < n) {
		qubo__lane_block(&wk->g, r);
		for (l = 0; l < SA_LANES; l++)
			for (k = 0; k < 32 && i < n; k++, i++)
				wk->x[i] = (uint8_t)((r[l] >> k) & 1);
	}
}

/* Fields and tracked energy of the worker's x, computed exactly. */
static void init_fields(sa_worker *wk)
{
	const sa_prep *p = wk->sh->p;
	const qubo_model *m = p->m;
	const size_t n = p->n;
	const uint8_t *x = wk->x;
	size_t i, k;

	if (p->kind == SA_INT) {
		int32_t *f = wk->f;
		const int16_t *w = p->w;
		int64_t e = 0;
		memcpy(f, p->h, n * sizeof *f);
		for (i = 0; i < n; i++)
			if (x[i])
				for (k = p->rp[i]; k < p->rp[i + 1]; k++)
					f[col_at(p->col, k, p->narrow)] += w[k];
		for (i = 0; i < n; i++)
			if (x[i])
				e += (int64_t)f[i] + ((const int32_t *)p->h)[i];
		wk->ei = e / 2; /* Σ x_i (f_i + h_i) = 2 (E − offset) */
	} else {
		double *fd = p->kind == SA_F64 ? wk->f : NULL, e = 0;
		for (i = 0; i < n; i++) {
			double v = m->h[i];
			for (k = m->row[i]; k < m->row[i + 1]; k++) /* no branch on x */
				v += m->val[k] * (double)x[m->col[k]];
			if (fd)
				fd[i] = v;
			else
				((float *)wk->f)[i] = (float)v;
			if (x[i])
				e += 0.5 * (v + m->h[i]);
		}
		wk->er = e;
	}
}

/* After a sweep of a single read: keeps its state in bx if it is the lowest
 * seen at a sweep's end (the tracked energies decide, in the same way in
 * the lane sweeps, so both keep the same states). */
static void keep_lowest(sa_worker *wk)
{
	if (wk->sh->p->kind == SA_INT ? wk->ei < wk->bei : wk->er < wk->ber) {
		wk->bei = wk->ei;
		wk->ber = wk->er;
		memcpy(wk->bx, wk->x, wk->sh->p->n);
	}
}

/* The tracked energy at or below which a read may have reached the target
 * (never, without a target): the scaled target with a little slack, and
 * the exact energy decides (confirm_target). */
static void set_trigger(sa_worker *wk)
{
	const sa_shared *sh = wk->sh;
	const sa_prep *p = sh->p;
	const qubo_model *m = sh->m;

	wk->trig_i = INT64_MIN;
	wk->trig_r = -HUGE_VAL;
	if (!sh->has_target)
		return;
	if (p->kind == SA_INT) {
		double t = (sh->target - m->offset) / p->unit;
		t += 1e-9 * (fabs(t) + 1);
		wk->trig_i = t >= 9e18 ? INT64_MAX : t <= -9e18 ? INT64_MIN : (int64_t)floor(t);
	} else { /* the tracked energy drifts by rounding */
		wk->trig_r = sh->target - m->offset +
			     1e-9 * (fabs(sh->target - m->offset) + p->scale);
	}
}

/* Runs read r in the worker's buffers. Returns the flip attempts made; *hit
 * is set when the read reached the target. */
static uint64_t run_read(sa_worker *wk, size_t r, int *hit)
{
	sa_shared *sh = wk->sh;
	const sa_prep *p = sh->p;
	const qubo_model *m = sh->m;
	const size_t n = p->n;
	uint64_t attempts = 0;
	size_t s;

	qubo__lane_seed(&wk->g, sh->seed, sh->first_read + r);
	random_state(wk, n);
	init_fields(wk);
	wk->bei = wk->ei;
	wk->ber = wk->er;
	if (sh->keep_lowest)
		memcpy(wk->bx, wk->x, n);
	set_trigger(wk);
	if (sh->has_target) {
		if (exact_energy(m, wk->x) <= sh->target) {
			*hit = 1;
			return 0;
		}
	}
	for (s = 0; n && s < sh->num_sweeps; s++) {
		double bu = beta_at(sh, s) * p->unit;
		if (stopped(sh))
			break;
		if (p->kind == SA_F32 && s % SA_RESYNC == 0 && s)
			init_fields(wk);
		/* The fast sweep handles bu in [2^−100, 2^100]: t in float32 is
		 * then exact enough (see decide_avx2). */
		if (bu >= 0x1p-100 && bu <= 0x1p100)
			attempts += sh->sweep(wk, bu, hit);
		else
			attempts += sh->portable(wk, bu, hit);
		if (*hit)
			break;
		if (sh->keep_lowest)
			keep_lowest(wk);
	}
	return attempts;
}

/* Lane g of the worker's lanes from its single-read buffers: x, fields and
 * the generator. */
static void lanes_put(sa_worker *wk, unsigned g)
{
	const sa_prep *p = wk->sh->p;
	size_t i;
	int j, k;

	for (i = 0; i < p->n; i++) {
		wk->gx[SA_LANE_READS * i + g] = (uint8_t)-wk->x[i]; /* 0x00 or 0xFF */
		if (p->kind == SA_F64)
			((double *)wk->gf)[SA_LANE_READS * i + g] = ((const double *)wk->f)[i];
		else if (p->kind == SA_F32)
			((float *)wk->gf)[SA_LANE_READS * i + g] = ((const float *)wk->f)[i];
		else /* |f| <= SA_INT_MAX_DE */
			((int16_t *)wk->gf)[SA_LANE_READS * i + g] = (int16_t)((const int32_t *)wk->f)[i];
	}
	for (j = 0; j < SA_LANES; j++)
		for (k = 0; k < 4; k++)
			wk->gs[(4 * j + k) * SA_LANE_READS + g] = wk->g.s[k][j];
}

/* x of read g of the lanes into the worker's single-read x. */
static void lanes_get_x(sa_worker *wk, unsigned g)
{
	size_t i;

	for (i = 0; i < wk->sh->p->n; i++)
		wk->x[i] = wk->gx[SA_LANE_READS * i + g] & 1;
}

/* keep_lowest for each read of the lanes: the reads whose tracked energy
 * went below their lowest get their bytes of gx copied into gbx (whole
 * 32-byte blocks: gx and gbx are padded to 64 bytes, and the padding is
 * never read). */
static void lanes_keep_lowest(sa_worker *wk)
{
	const int integer = wk->sh->p->kind == SA_INT;
	uint8_t mb[SA_LANE_READS]; /* 0xFF for the reads that improved */
	unsigned g, better = 0;

	for (g = 0; g < SA_LANE_READS; g++) {
		mb[g] = 0;
		if (integer ? wk->gei[g] < wk->gbi[g] : wk->ger[g] < wk->gbr[g]) {
			wk->gbi[g] = wk->gei[g];
			wk->gbr[g] = wk->ger[g];
			mb[g] = 0xFF;
			better = 1;
		}
	}
	if (!better)
		return;
#if SA_AVX2
	qubo__sa_lanes_blend(wk->gbx, wk->gx, mb, wk->sh->p->n);
#else
	{
		uint64_t mask, x, y;
		size_t i;
		memcpy(&mask, mb, sizeof mask);
		for (i = 0; i < wk->sh->p->n; i++) {
			memcpy(&x, wk->gx + SA_LANE_READS * i, sizeof x);
			memcpy(&y, wk->gbx + SA_LANE_READS * i, sizeof y);
			y = (y & ~mask) | (x & mask);
			memcpy(wk->gbx + SA_LANE_READS * i, &y, sizeof y);
		}
	}
#endif
}

/* Read g of the lanes, final and lowest state, into the worker's single-read
 * buffers, with their tracked energies. */
static void lanes_get(sa_worker *wk, unsigned g)
{
	size_t i;

	for (i = 0; i < wk->sh->p->n; i++) {
		wk->x[i] = wk->gx[SA_LANE_READS * i + g] & 1;
		wk->bx[i] = wk->gbx[SA_LANE_READS * i + g] & 1;
	}
	wk->ei = wk->gei[g];
	wk->bei = wk->gbi[g];
	wk->er = wk->ger[g];
	wk->ber = wk->gbr[g];
}

/* The reads of the lanes whose state reached the target, checked at the
 * end of a sweep: the tracked energy triggers, the exact one decides (and
 * resynchronises a real read that only drifted below the trigger). */
static unsigned lanes_reached(sa_worker *wk)
{
	const sa_shared *sh = wk->sh;
	const int integer = sh->p->kind == SA_INT;
	unsigned g, hits = 0;

	for (g = 0; g < SA_LANE_READS; g++) {
		double e;
		if (integer ? wk->gei[g] > wk->trig_i : wk->ger[g] > wk->trig_r)
			continue;
		lanes_get_x(wk, g);
		e = exact_energy(sh->m, wk->x);
		if (e <= sh->target)
			hits |= 1u << g;
		else if (!integer)
			wk->ger[g] = e - sh->m->offset;
	}
	return hits;
}

/* Runs reads r0 … r0 + SA_LANE_READS − 1 together. Each read starts, draws its
 * random numbers and rounds exactly as run_read would; only the order of
 * the work differs. Returns the flip attempts made. */
static uint64_t run_lanes(sa_worker *wk, size_t r0, unsigned *hits)
{
	sa_shared *sh = wk->sh;
	const sa_prep *p = sh->p;
	const size_t n = p->n;
	uint64_t attempts = 0;
	unsigned g;
	size_t s;

	*hits = 0;
	set_trigger(wk);
	for (g = 0; g < SA_LANE_READS; g++) {
		qubo__lane_seed(&wk->g, sh->seed, sh->first_read + r0 + g);
		random_state(wk, n);
		if (sh->has_target && exact_energy(sh->m, wk->x) <= sh->target)
			*hits |= 1u << g;
		init_fields(wk);
		lanes_put(wk, g);
		wk->gei[g] = wk->gbi[g] = wk->ei;
		wk->ger[g] = wk->gbr[g] = wk->er;
	}
	if (sh->keep_lowest)
		memcpy(wk->gbx, wk->gx, SA_LANE_READS * n);
	for (s = 0; n && !*hits && s < sh->num_sweeps; s++) {
		if (stopped(sh))
			break;
#if SA_AVX2 /* lanes run only with AVX2 */
		if (p->kind == SA_F32 && s % SA_RESYNC == 0 && s)
			qubo__sa_lanes_resync(wk);
#endif
		sh->lsweep(wk, beta_at(sh, s) * p->unit);
		attempts += (uint64_t)SA_LANE_READS * n;
		if (sh->keep_lowest)
			lanes_keep_lowest(wk);
		if (sh->has_target)
			*hits = lanes_reached(wk);
	}
	return attempts;
}

/* Stores a finished read: its lowest state seen at a sweep's end (the final
 * one unless an earlier one is lower, exactly), exact energy, counters. */
static void finish_read(sa_worker *wk, size_t r, int hit)
{
	sa_shared *sh = wk->sh;
	const size_t n = sh->p->n;
	double e = exact_energy(sh->m, wk->x);

	if (sh->keep_lowest && (sh->p->kind == SA_INT ? wk->bei < wk->ei : wk->ber < wk->er)) {
		double eb = exact_energy(sh->m, wk->bx);
		if (eb < e) {
			memcpy(wk->x, wk->bx, n);
			e = eb;
		}
	}
	memcpy(sh->samples + r * n, wk->x, n);
	sh->energies[r] = e;
	sh->done[r] = 1;
	if (hit)
		qubo__pool_request_stop(sh->pool, QUBO__STOP_TARGET);
	qubo__pool_report(sh->pool, 1, e);
}

/* Unit u of the pool on worker w: reads SA_LANE_READS u .. SA_LANE_READS u + 7 while
 * u < num_lane_units, then one read each. This is the order in which reads were
 * always taken (8 at a time while 8 are left), and a read's result depends on
 * (seed, read) only. */
static int sa_unit(qubo__pool *pl, unsigned w, size_t u)
{
	sa_shared *sh = pl->arg;
	sa_worker *wk = &sh->wk[w];
	int hit = 0;

	if (stopped(sh))
		return QUBO_OK; /* taken after a stop: no read runs */
	if (u < sh->num_lane_units) {
		size_t r = u * SA_LANE_READS;
		unsigned g, hits;

		wk->flips += run_lanes(wk, r, &hits);
		for (g = 0; g < SA_LANE_READS; g++) {
			lanes_get(wk, g);
			finish_read(wk, r + g, (hits >> g) & 1);
		}
	} else {
		size_t r = sh->num_lane_units * SA_LANE_READS + (u - sh->num_lane_units);

		wk->flips += run_read(wk, r, &hit);
		finish_read(wk, r, hit);
	}
	return QUBO_OK;
}

/* ---------------------------------------------------------------------------
 * Driver.
 */

static int check_args(const qubo_model *m, const qubo__sa_params *p, const qubo__run *run,
		      const uint8_t *samples, const double *energies, const qubo__result *res)
{
	static const char fn[] = "simulated annealing";
	int rc = qubo__model_require_bounded(m, fn);

	if (rc)
		return rc;
	if (!p || !run || !res || !samples || !energies)
		return qubo__error(QUBO_ERR_MISUSE, "%s: NULL parameters, run control or buffer",
				   fn);
	if (run->num_reads < 1)
		return qubo__error(QUBO_ERR_INVALID_ARG, "%s: num_reads is 0", fn);
	if (p->num_sweeps < 1)
		return qubo__error(QUBO_ERR_INVALID_ARG, "%s: num_sweeps is 0", fn);
	if (run->threads < 1)
		return qubo__error(QUBO_ERR_INVALID_ARG, "%s: threads is %d, need at least 1", fn,
				   run->threads);
	if (!(p->beta_hot == 0 && p->beta_cold == 0) &&
	    !(qubo__is_finite(p->beta_hot) && p->beta_hot > 0 &&
	      qubo__is_finite(p->beta_cold) && p->beta_cold > 0))
		return qubo__error(QUBO_ERR_INVALID_ARG, "%s: beta range [%g, %g] must be two "
				   "finite positive values, or both 0 for the default", fn,
				   p->beta_hot, p->beta_cold);
	if (run->time_limit != run->time_limit)
		return qubo__error(QUBO_ERR_INVALID_ARG, "%s: time_limit is NaN", fn);
	if (run->has_target && run->target != run->target)
		return qubo__error(QUBO_ERR_INVALID_ARG, "%s: target is NaN", fn);
	if (m->n && run->num_reads > SIZE_MAX / m->n)
		return qubo__too_large(QUBO_LIMIT_ADDRESS_SPACE, SIZE_MAX,
				       "%s: %zu reads of %zu variables do not fit "
				       "in memory",
				       fn, run->num_reads, m->n);
	if (m->n > SIZE_MAX / sizeof(double) / 2 - 64)
		return qubo__too_large(QUBO_LIMIT_ADDRESS_SPACE, SIZE_MAX, "%s: %zu variables", fn,
				       m->n);
	return QUBO_OK;
}

static void free_workers(const qubo_allocator *a, sa_worker *w, size_t count)
{
	size_t t;

	if (!w)
		return;
	for (t = 0; t < count; t++) {
		qubo__free(a, w[t].mem);
		qubo__free(a, w[t].gmem);
	}
	qubo__free(a, w);
}

/* One worker's x and fields in one block, each on its own cache lines (no
 * line is shared with another allocation), padding filled. */
static int alloc_worker(const qubo_allocator *a, const sa_prep *p, sa_worker *w)
{
	const size_t n = p->n, cells = n + SA_LANES;
	const size_t fsize = p->kind == SA_INT ? sizeof(int32_t)
			   : p->kind == SA_F32 ? sizeof(float) : sizeof(double);
	const size_t xbytes = (cells + 63) / 64 * 64;
	size_t t;
	uintptr_t base;

	w->mem = qubo__malloc(a, 64 + 2 * xbytes + cells * fsize + 64);
	if (!w->mem)
		return 0;
	base = ((uintptr_t)w->mem + 63) & ~(uintptr_t)63;
	w->x = (uint8_t *)w->mem + (base - (uintptr_t)w->mem);
	w->bx = w->x + xbytes;
	w->f = w->bx + xbytes;
	memset(w->x, 0, 2 * xbytes);
	for (t = n; t < cells; t++) {
		if (p->kind == SA_INT)
			((int32_t *)w->f)[t] = INT32_MAX / 2;
		else if (p->kind == SA_F32)
			((float *)w->f)[t] = HUGE_VALF;
		else
			((double *)w->f)[t] = HUGE_VAL;
	}
	if (p->lanes) {
		const size_t gfsize = p->kind == SA_F64 ? sizeof(double)
				    : p->kind == SA_F32 ? sizeof(float) : sizeof(int16_t);
		const size_t gxbytes = (cells * SA_LANE_READS + 63) / 64 * 64;
		const size_t gfbytes = (cells * SA_LANE_READS * gfsize + 63) / 64 * 64;
		const size_t gsbytes = 4 * SA_LANES * SA_LANE_READS * sizeof(uint32_t);

		w->gmem = qubo__malloc(a, 64 + 2 * gxbytes + gfbytes + gsbytes + 64);
		if (!w->gmem)
			return 0;
		base = ((uintptr_t)w->gmem + 63) & ~(uintptr_t)63;
		w->gx = (uint8_t *)w->gmem + (base - (uintptr_t)w->gmem);
		/* gx, gf and gs, which every sweep reads, before gbx, which only
		 * the ends of some sweeps touch */
		w->gf = w->gx + gxbytes;
		w->gs = (uint32_t *)(void *)((uint8_t *)w->gf + gfbytes);
		w->gbx = (uint8_t *)w->gs + gsbytes;
		memset(w->gx, 0, 2 * gxbytes + gfbytes + gsbytes);
	}
	return 1;
}

int qubo__sa_sample(const qubo_model *m, const qubo__sa_params *params, const qubo__run *run,
		    uint8_t *samples, double *energies, qubo__result *res)
{
	const qubo_allocator *a;
	sa_prep *p = NULL;
	sa_shared sh;
	qubo__pool rn;
	size_t nworkers = 0, t, r, kept;
	double bh, bc;
	int rc, shift = 0;
	int32_t maxde = 0;

	rc = check_args(m, params, run, samples, energies, res);
	if (rc)
		return rc;
	memset(&sh, 0, sizeof sh);
	a = &m->alloc;
	bh = params->beta_hot;
	bc = params->beta_cold;
	if (bh == 0 && bc == 0) {
		rc = qubo__sa_default_betas(m, &bh, &bc);
		if (rc)
			return rc;
	}

	/* Everything is allocated here, on the calling thread. */
	p = qubo__malloc(a, sizeof *p);
	if (!p)
		return qubo__nomem("simulated annealing: problem data");
	memset(p, 0, sizeof *p);
	p->m = m;
	p->n = m->n;
	p->unit = 1.0;
	{
		double wmax = qubo__max_weight(m);
		p->scale = wmax > 0 ? wmax * qubo__sa_max_delta(m, wmax) : 0;
	}
	p->kind = qubo__sa_pick_kind(m, params, run, fmax(bh, bc), p->scale, &shift, &maxde);
	if (p->kind == SA_INT) {
		p->unit = ldexp(1.0, -shift);
		p->wide_de = maxde > 4095;
	}
	p->narrow = m->n < 65536;
	/* Lanes: SIMD lanes across reads, when there are enough reads and
	 * every β of the schedule suits the float32 test (see run_read). A
	 * lane sweep checks the target at the end of each sweep. */
	p->lanes = qubo__lane_have_avx2() && !(params->flags & (QUBO__SA_PORTABLE | QUBO__SA_NO_LANES)) &&
		    run->num_reads >= SA_LANE_READS &&
		    fmin(bh, bc) * p->unit >= 0x1p-100 && fmax(bh, bc) * p->unit <= 0x1p100 &&
		    m->n < UINT32_MAX / (SA_LANE_READS * sizeof(double)) - 1;
	rc = qubo__sa_prep_build(m, p, shift);
	if (rc)
		goto out;
	qubo__sa_prep_log_tables(p);
	sh.m = m;
	sh.p = p;
	sh.num_reads = run->num_reads;
	sh.num_sweeps = params->num_sweeps;
	sh.seed = run->seed;
	sh.first_read = run->first_read;
	sh.beta_hot = bh;
	sh.beta_cold = bc;
	sh.log_ratio = log(bc / bh);
	sh.keep_lowest = params->keep_lowest;
	sh.has_target = run->has_target;
	sh.target = run->has_target ? run->target : -HUGE_VAL;
	qubo__sa_pick_sweeps(p, (params->flags & QUBO__SA_PORTABLE) != 0, &sh.sweep, &sh.portable);
	sh.lsweep = qubo__sa_pick_lsweep(p);
	sh.num_lane_units = sh.lsweep ? run->num_reads / SA_LANE_READS : 0;
	sh.samples = samples;
	sh.energies = energies;

	/* The pool's units: the reads in lanes, then the single reads left; progress
	 * counts reads. */
	qubo__pool_init_run(&rn, run, sh.num_lane_units + (run->num_reads - sh.num_lane_units * SA_LANE_READS),
			    sa_unit, &sh);
	rn.total = run->num_reads;
	sh.pool = &rn;
	nworkers = rn.num_workers;
	sh.done = qubo__calloc_array(a, run->num_reads, 1);
	sh.wk = qubo__calloc_array(a, nworkers, sizeof *sh.wk);
	if (!sh.done || !sh.wk) {
		rc = qubo__nomem("simulated annealing: per-read flags");
		goto out;
	}
	for (t = 0; t < nworkers; t++) {
		sh.wk[t].sh = &sh;
		if (!alloc_worker(a, p, &sh.wk[t])) {
			rc = qubo__nomem("simulated annealing: per-thread buffers");
			goto out;
		}
	}

	rc = qubo__pool_exec_run(&rn, res);
	if (rc)
		goto out;

	/* Compact the rows of the reads that ran to the front, in read order. */
	kept = 0;
	for (r = 0; r < run->num_reads; r++) {
		if (!sh.done[r])
			continue;
		if (kept != r) {
			memmove(samples + kept * m->n, samples + r * m->n, m->n);
			energies[kept] = energies[r];
		}
		kept++;
	}
	res->reads_done = kept;
	res->flips = 0;
	for (t = 0; t < nworkers; t++)
		res->flips += sh.wk[t].flips;
	rc = QUBO_OK;
out:
	free_workers(a, sh.wk, nworkers);
	qubo__free(a, sh.done);
	qubo__sa_prep_free(a, p);
	return rc;
}
