/*
 * libFuzzer target for the puzzle parser (libqubo-puzzle).
 *
 * Any input: qubo_puzzle_parse() must return a status without crashing; on
 * failure out stays NULL and a message is set; a parse error names a line
 * and column inside the input (or just past its end), and any other error
 * names none. When the input parses, the puzzle is formatted, parsed again
 * and must give the same text, the same statistics and the same cell map;
 * the rule checker runs on a board made from the input's bytes and on the
 * decoded all-zero sample; a formatted solution parses back to the same
 * board. A mismatch aborts (allowed here, never in the library).
 *
 * The reduction level comes from the input's length, so all three are
 * exercised. Boards of up to 64 cells a side are built, with a time limit
 * of FUZZ_BUILD_LIMIT seconds: the parse must return within it (and the
 * slack of fuzz_common.h), whatever the board; a build stopped by it is
 * not exercised further. Inputs whose header holds a number above 64 are
 * skipped. Allocations go through an allocator that refuses blocks above
 * 64 MiB.
 */
#define FUZZ_NAME "fuzz_puzzle"
#include "fuzz_common.h"

#define FUZZ_MAX_SIDE 64

/* Nonzero when the first line that is neither blank nor a comment holds a
 * number above FUZZ_MAX_SIDE (after a UTF-8 byte-order mark, which the
 * parser skips). */
static int too_big(const char *s, size_t n)
{
	size_t i = n >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3) ? 3 : 0;

	while (i < n) {
		size_t end = i, j;

		while (end < n && s[end] != '\n')
			end++;
		j = i;
		while (j < end && (s[j] == ' ' || s[j] == '\t' || s[j] == '\r'))
			j++;
		if (j < end && s[j] != '#') {
			unsigned long v = 0;
			int digits = 0;

			for (; j <= end; j++) {
				if (j < end && s[j] >= '0' && s[j] <= '9') {
					if (v <= 100000)
						v = v * 10 + (unsigned long)(s[j] - '0');
					digits = 1;
				} else {
					if (digits && v > FUZZ_MAX_SIDE)
						return 1;
					v = 0;
					digits = 0;
				}
			}
			return 0;
		}
		i = end + 1;
	}
	return 0;
}

static char *format_all(const qubo_puzzle *p, size_t *len_out)
{
	size_t len = 0, len2 = 0;
	char *buf;
	int rc = qubo_puzzle_format(p, NULL, 0, &len);

	check(rc == QUBO_OK && len > 0, "format size query");
	buf = malloc(len + 1);
	check(buf != NULL, "malloc");
	rc = qubo_puzzle_format(p, buf, len + 1, &len2);
	check(rc == QUBO_OK && len2 == len && buf[len] == '\0', "format");
	*len_out = len;
	return buf;
}

static void same_puzzle(const qubo_puzzle *a, const qubo_puzzle *b)
{
	qubo_puzzle_stats sa, sb;
	size_t cells;
	qubo_lit *la, *lb;
	double ga = 0.0, gb = 0.0;
	int ra, rb;

	memset(&sa, 0, sizeof sa);
	memset(&sb, 0, sizeof sb);
	sa.struct_size = sb.struct_size = sizeof sa;
	check(qubo_puzzle_get_stats(a, &sa) == QUBO_OK, "stats");
	check(qubo_puzzle_get_stats(b, &sb) == QUBO_OK, "stats");
	check(memcmp(&sa, &sb, sizeof sa) == 0, "stats differ after a round trip");
	check(qubo_puzzle_family(a) == qubo_puzzle_family(b), "family differs");
	cells = sa.width * sa.height;
	la = malloc((cells + 1) * sizeof *la);
	lb = malloc((cells + 1) * sizeof *lb);
	check(la && lb, "malloc");
	check(qubo_puzzle_cell_literals(a, la, cells) == QUBO_OK, "cell_literals");
	check(qubo_puzzle_cell_literals(b, lb, cells) == QUBO_OK, "cell_literals");
	check(memcmp(la, lb, cells * sizeof *la) == 0, "cell maps differ");
	/* optimisation families have no ground energy unless the optimum is known */
	ra = qubo_puzzle_ground_energy(a, &ga);
	rb = qubo_puzzle_ground_energy(b, &gb);
	check(ra == rb && (ra == QUBO_OK || ra == QUBO_ERR_NOT_SUPPORTED), "ground energy");
	check(ra != QUBO_OK || ga == gb, "ground energies differ");
	free(la);
	free(lb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	qubo_puzzle_options o;
	qubo_puzzle *p = (qubo_puzzle *)&o, *q = NULL;
	char *out, *out2;
	size_t len, len2;
	double t0;
	int rc;

	if (too_big(text, size))
		return 0;
	memset(&o, 0, sizeof o);
	o.struct_size = sizeof o;
	o.reduce = (int32_t)(size % 3) + 1;
	o.allocator = &fuzz_alloc;
	o.time_limit = FUZZ_BUILD_LIMIT;
	qubo_error_clear();
	t0 = fuzz_now();
	rc = qubo_puzzle_parse(&p, text, size, &o);
	if (check_build(t0, rc, p)) {
		/* a parse error names where it is, and so may a number too large
		 * for the library (a board side above 4096) */
		if (rc == QUBO_ERR_PARSE || (rc == QUBO_ERR_TOO_LARGE && qubo_error_line()))
			check_position(text, size);
		else if (rc != QUBO_TIME_LIMIT)
			check(qubo_error_line() == 0, "a position for an error that names none");
		return 0;
	}
	fuzz_exercise(p, data, size);
	out = format_all(p, &len);
	t0 = fuzz_now();
	rc = qubo_puzzle_parse(&q, out, len, &o);
	check_build(t0, rc, q);
	if (rc == QUBO_TIME_LIMIT || rc == QUBO_ERR_NOMEM) { /* the limits, not a bug */
		free(out);
		qubo_puzzle_free(p);
		return 0;
	}
	check(rc == QUBO_OK, "the formatted puzzle does not parse");
	out2 = format_all(q, &len2);
	check(len == len2 && memcmp(out, out2, len) == 0, "format is not stable");
	same_puzzle(p, q);
	free(out);
	free(out2);
	qubo_puzzle_free(q);
	qubo_puzzle_free(p);
	return 0;
}
