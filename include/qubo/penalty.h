/**
 * @file qubo/penalty.h
 * @brief The penalty algebra: constraints over literals as QUBO terms.
 *
 * Each function adds to a model the terms of one constraint over literals
 * (variables, complements or constants; see qubo/literal.h) with a weight
 * P > 0. Constants are folded in first, so a constraint over a fixed cell
 * costs nothing extra. "Exact" means that the minimisers of the added terms
 * are exactly the assignments that satisfy the constraint. Each function
 * documents its minimum value (the energy of every satisfying assignment)
 * and its gap: every violating assignment has energy at least minimum + gap.
 * For the count constraints, equal, differ and no-three-equal the gap is
 * attained by some violating assignment (when one exists) as long as no
 * variable occurs twice in the constraint; repeats can only widen it.
 *
 * Literal lists are multisets: a variable may repeat, meet its own
 * complement, or share the list with constants, and the penalty is still
 * exactly the documented polynomial of S = Σ ℓ_i (ℓ² = ℓ, ℓ·ℓ̄ = 0). For
 * example exactly 1 of (x, x̄) holds for every x (its terms sum to zero),
 * while exactly 0 of (x, x̄) can never hold. Feasibility is decided
 * over the multiset (not just by counting free literals).
 *
 * Energies are sums of doubles: they are exact when P and the data are
 * integers (or P is a power of two) and the products stay below 2^53.
 *
 * Common errors: #QUBO_ERR_MISUSE (NULL model, or NULL array with a nonzero
 * count), #QUBO_ERR_INVALID_ARG (P not finite and positive, a coefficient
 * not finite), #QUBO_ERR_OUT_OF_RANGE (a literal's variable is not in the
 * model, or a derived weight such as P·k² overflows a double),
 * #QUBO_ERR_TOO_LARGE (sizes beyond the model's limits), #QUBO_ERR_NOMEM. A
 * constraint that no assignment can satisfy (for example exactly 3 of 2
 * literals, or a constant that already breaks it) returns
 * #QUBO_ERR_INFEASIBLE. On any error the model is unchanged. Bad arguments
 * are reported before infeasibility; only the overflow check on derived
 * weights may come after it.
 */
#ifndef QUBO_PENALTY_H
#define QUBO_PENALTY_H

#include "common.h"
#include "literal.h"
#include "model.h"
#include "status.h"

QUBO_BEGIN_DECLS

/** Which form qubo_penalty_k_or_k1() uses. */
enum qubo_k_or_k1_form {
	/** P (S − k)(S − k − 1): minimum 0. */
	QUBO_K_OR_K1_ZERO_BASED = 0,
	/** P (S − k − ½)²: minimum P/4. */
	QUBO_K_OR_K1_FRACTIONAL = 1
};

/**
 * Exactly @p k of the literals are true: P (S − k)², S = Σ ℓ_i.
 * Minimum 0, gap P (P·δ² in general, δ the smallest nonzero |S − k|).
 *
 * With c constants equal to 1 among the literals, the call adds
 * 2P Σ_{i<j} ℓ_i ℓ_j over the free literals as one clique record (O(count)
 * to build), P (1 − 2(k − c)) to each free literal and P (k − c)².
 * k < 0 or k > count is infeasible; count 0 with k = 0 adds nothing.
 * Feasibility is exact; when variables repeat it needs a small subset-sum
 * check, which is skipped (the call accepts) only for sets of tens of
 * thousands of literals.
 * @param[in,out] model the model.
 * @param[in] lits the literals.
 * @param[in] count number of literals.
 * @param[in] k required number of true literals.
 * @param[in] weight P.
 * @return #QUBO_OK or a common error (see the file description).
 * @since 0.1
 */
QUBO_API int qubo_penalty_exactly(qubo_model *model, const qubo_lit *lits, size_t count,
				  int64_t k, double weight);

/**
 * Weighted equality Σ a_i ℓ_i = b: P (Σ a_i ℓ_i − b)².
 * Minimum 0; gap P·δ², where δ is the smallest nonzero |Σ a_i ℓ_i − b| over
 * all assignments (δ ≥ 1 when the a_i and b are integers).
 *
 * Feasibility is decided for integer data (every a_i and b an integer,
 * Σ |a_i| and |b| at most 2^52): at once when the reachable range of the sum
 * is too short to skip b, otherwise by an exact subset-sum search when it is
 * cheap (at most 20 variables with a nonzero net coefficient, or a bitset of
 * the sum's range small enough); a search too large to run is skipped and
 * the call accepts. With fractional data the call cannot know, and returns
 * #QUBO_OK. The pairwise terms differ per pair, so they are stored one by
 * one (O(count²)), except when all a_i are equal: then they form one clique.
 * Zero coefficients are dropped; with integer data an empty sum (count 0,
 * or constants only) is infeasible unless it equals b.
 * @param[in,out] model the model.
 * @param[in] lits the literals.
 * @param[in] coeffs a_i, finite.
 * @param[in] count number of literals.
 * @param[in] rhs b, finite.
 * @param[in] weight P.
 * @return #QUBO_OK or a common error.
 * @since 0.1
 */
QUBO_API int qubo_penalty_weighted_equal(qubo_model *model, const qubo_lit *lits,
					 const double *coeffs, size_t count, double rhs,
					 double weight);

/**
 * At most one literal is true: P Σ_{i<j} ℓ_i ℓ_j = P S (S − 1) / 2.
 * Minimum 0, gap P. Stored as one clique record over the free literals
 * (plus P on each of them when one literal is the constant 1). Infeasible
 * when two literals are the constant 1, or when complements force two
 * literals true (x, x̄, y, ȳ); count 0 or 1 adds nothing.
 * @param[in,out] model the model.
 * @param[in] lits the literals.
 * @param[in] count number of literals.
 * @param[in] weight P.
 * @return #QUBO_OK or a common error.
 * @since 0.1
 */
QUBO_API int qubo_penalty_at_most_one(qubo_model *model, const qubo_lit *lits, size_t count,
				      double weight);

/**
 * S ∈ {k, k+1}. The zero-based form P (S − k)(S − k − 1) has minimum 0; the
 * fractional form P (S − k − ½)² has minimum P/4 (added as an offset even
 * when there are no free literals). Both have gap 2P. The pairwise part is
 * one clique record. k = −1 means S = 0; k < −1 or k > count is infeasible.
 * @param[in,out] model the model.
 * @param[in] lits the literals.
 * @param[in] count number of literals.
 * @param[in] k the lower of the two allowed counts.
 * @param[in] weight P.
 * @param[in] form a value of enum qubo_k_or_k1_form.
 * @return #QUBO_OK or a common error.
 * @since 0.1
 */
QUBO_API int qubo_penalty_k_or_k1(qubo_model *model, const qubo_lit *lits, size_t count,
				  int64_t k, double weight, int form);

/**
 * ℓ_a = ℓ_b: P (ℓ_a − ℓ_b)². Minimum 0, gap P. When a = b the constraint
 * always holds and nothing is added; a = b̄ (complements, or the two
 * different constants) is infeasible.
 * @param[in,out] model the model.
 * @param[in] a a literal.
 * @param[in] b a literal.
 * @param[in] weight P.
 * @return #QUBO_OK or a common error.
 * @since 0.1
 */
QUBO_API int qubo_penalty_equal(qubo_model *model, qubo_lit a, qubo_lit b, double weight);

/**
 * ℓ_a ≠ ℓ_b: P (ℓ_a + ℓ_b − 1)², the same polynomial as equal(a, b̄).
 * Minimum 0, gap P. a = b (the same literal or constant) is infeasible;
 * a = b̄ always holds and adds nothing.
 * @param[in,out] model the model.
 * @param[in] a a literal.
 * @param[in] b a literal.
 * @param[in] weight P.
 * @return #QUBO_OK or a common error.
 * @since 0.1
 */
QUBO_API int qubo_penalty_differ(qubo_model *model, qubo_lit a, qubo_lit b, double weight);

/**
 * Not all three equal: P (1 − a − b − c + ab + bc + ca), which is 0 unless
 * a = b = c and P then. Minimum 0, gap P. Infeasible only when a, b and
 * c are the same literal (or the same constant): any two different literals
 * can be made to differ.
 * @param[in,out] model the model.
 * @param[in] a a literal.
 * @param[in] b a literal.
 * @param[in] c a literal.
 * @param[in] weight P.
 * @return #QUBO_OK or a common error.
 * @since 0.1
 */
QUBO_API int qubo_penalty_no_three_equal(qubo_model *model, qubo_lit a, qubo_lit b, qubo_lit c,
					 double weight);

/**
 * No edge has both ends true: P Σ_{(u,v)∈E} ℓ_u ℓ_v. Each edge is given
 * once; a repeated edge is counted again. Minimum 0, gap P: the energy is
 * P times the number of broken edges (attained when some assignment breaks
 * a single edge, e.g. without complements, constants and repeated edges).
 *
 * An edge (ℓ, ℓ) forces ℓ false, an edge (x, x̄) or one with the constant 0
 * is void, and an edge between two constants 1 is infeasible. With
 * complements the edges form a 2-SAT instance; its satisfiability is decided
 * exactly (linear time) and an unsatisfiable one is #QUBO_ERR_INFEASIBLE.
 * The pairwise terms are stored one per edge.
 * @param[in,out] model the model.
 * @param[in] pairs 2 · @p num_edges literals: u_0, v_0, u_1, v_1, …
 * @param[in] num_edges number of edges.
 * @param[in] weight P.
 * @return #QUBO_OK or a common error.
 * @since 0.1
 */
QUBO_API int qubo_penalty_conflicts(qubo_model *model, const qubo_lit *pairs, size_t num_edges,
				    double weight);

/**
 * A reward for true literals: −Σ w_i ℓ_i. Not a constraint: it has no
 * minimum or gap of its own. Weights may have any sign but must be finite.
 * @param[in,out] model the model.
 * @param[in] lits the literals.
 * @param[in] weights w_i.
 * @param[in] count number of literals.
 * @return #QUBO_OK or a common error.
 * @since 0.1
 */
QUBO_API int qubo_penalty_reward(qubo_model *model, const qubo_lit *lits, const double *weights,
				 size_t count);

/**
 * lo ≤ Σ a_i ℓ_i ≤ hi with integer coefficients, through binary slack.
 *
 * The bounds are first tightened to the values the sum can take: with T_min
 * and T_max its exact minimum and maximum over all assignments, L = max(lo,
 * T_min) and H = min(hi, T_max) give the same feasible set (so "at least
 * one" may pass hi = INT64_MAX). When every assignment satisfies the
 * bounds (L = T_min and H = T_max) nothing is added. Otherwise the call adds
 * P (Σ a_i ℓ_i − L − Σ_k c_k z_k)², where the new slack variables z_k have
 * coefficients 1, 2, 4, … with the last one cut so that they encode exactly
 * 0 … H − L (⌈log2(H − L + 1)⌉ of them; none when H = L).
 * Minimum 0 over (x, z). Gap P when H > L (then every feasible x also has a
 * slack setting one away); P·δ² as for weighted equality when H = L.
 * For every feasible x exactly one slack value s = Σ c_k z_k (namely
 * Σ a_i ℓ_i − L) reaches the minimum; when H − L + 1 is not a power of two
 * some values of s have two bit patterns. Infeasible x have energy at least
 * P·dist(Σ a_i ℓ_i, [lo, hi])² for every z. Feasibility is decided as for
 * weighted equality (exactly when the search is cheap, else accepted). When
 * all a_i are equal the pairs among the literals form one clique record;
 * the other pairs are stored one by one. The slack variables, when there
 * are any, are marked as one group (qubo_model_add_group()), so that a
 * solver can set them together.
 * @param[in,out] model the model; slack variables are appended to it.
 * @param[in] lits the literals.
 * @param[in] coeffs integer coefficients a_i.
 * @param[in] count number of literals.
 * @param[in] lo lower bound.
 * @param[in] hi upper bound, at least @p lo (#QUBO_ERR_INVALID_ARG otherwise).
 * @param[in] weight P.
 * @param[out] first_slack_out optional; receives the first slack variable
 *             (equal to the old variable count), set only on success.
 * @param[out] num_slack_out optional; receives the number of slack
 *             variables (0 when H = L), set only on success.
 * @return #QUBO_OK or a common error; #QUBO_ERR_OUT_OF_RANGE when
 *         Σ |a_i| exceeds 2^52 (beyond exact doubles); #QUBO_ERR_TOO_LARGE
 *         when the slack would exceed the variable limit.
 * @since 0.1
 */
QUBO_API int qubo_penalty_range(qubo_model *model, const qubo_lit *lits, const int64_t *coeffs,
				size_t count, int64_t lo, int64_t hi, double weight,
				uint32_t *first_slack_out, uint32_t *num_slack_out);

QUBO_END_DECLS

#endif /* QUBO_PENALTY_H */
