/* The random-play odds loop of sponsio_sim.kernels.odds.simulate, in C.
 *
 * A reference for scripts/bench_sponsio.py: the same conditional deal, the
 * same random play (every seat plays a uniformly random legal card), the same
 * settlement and the same counts as the numba kernel `odds_chunks` with every
 * seat on the `random` policy, drawing the same random numbers (xoshiro256**
 * seeded per chunk by tabletop_mc.rng.seed_state), so its count rows equal
 * the kernel's exactly. A random card is the k-th of the legal set, picked
 * with pdep where the CPU has BMI2 (-DSELECT_LOOP: a loop, as the kernel
 * picked it before it used pdep too). Written as a C programmer would write the loop: it
 * keeps only the state the counts need (no voids, no play sequence: the
 * random policy reads neither).
 *
 * Built into a shared library by scripts/c/build.sh; called through
 * ctypes by scripts/c_odds.py.
 */
#include <stdint.h>
#include <string.h>
#ifdef __BMI2__
#include <immintrin.h>
#endif

#define RANKS 9
#define MAX_PLAYERS 6
#define MAX_BETS 8
#define MAX_TRICKS 18
enum { TRICKS, COLOUR, LAST, NINES, FAIL, FIRST, N_KINDS };
#define NINES_OWN 1
#define PENDING -1

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void seed_state(uint64_t seed, uint64_t stream, uint64_t s[4]) {
    const uint64_t golden = 0x9E3779B97F4A7C15ULL;
    uint64_t a = seed, b = stream;
    b ^= mix(a ^ 0x243F6A8885A308D3ULL);
    a ^= mix(b ^ 0x13198A2E03707344ULL);
    b ^= mix(a ^ 0xA4093822299F31D0ULL);
    s[0] = mix(a);
    s[1] = mix(b);
    s[2] = mix(a + b * golden);
    s[3] = mix((b ^ rotl(a, 32)) + 0x082EFA98EC4E6C89ULL);
    if (!(s[0] | s[1] | s[2] | s[3])) s[0] = golden;
}

static inline uint64_t next_u64(uint64_t s[4]) {
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* The k-th (0-based) lowest set bit of x: BMI2's pdep where the target has it, else a loop. */
static inline int select_bit(uint64_t x, uint64_t k) {
#if defined(__BMI2__) && !defined(SELECT_LOOP)
    return __builtin_ctzll(_pdep_u64(1ULL << k, x));
#else
    for (; k; k--) x &= x - 1;
    return __builtin_ctzll(x);
#endif
}

typedef struct {
    int players, ask, leader, n_colours, flags, max_bets;
    const int64_t *pool; int n_pool;
    const uint64_t *fixed; const int64_t *need;
    uint64_t talon_fixed; int talon_need; uint64_t revealed;
    const int64_t *codes;     /* [players][max_bets][4]: kind, a, b, placement rank */
    const int64_t *bcounts;   /* bets held per seat */
    const int64_t *slots;     /* offset of each kind's counts in a row */
} Query;

typedef struct {
    uint64_t won[MAX_PLAYERS];
    int tricks_won[MAX_PLAYERS];
    int winners[MAX_TRICKS];
    int n_played;
    int nine_lost;
} Outcome;

#define CODE(q, s, i, f) ((q)->codes[((s) * (q)->max_bets + (i)) * 4 + (f)])

static int bet_won(const Query *q, int kind, int a, int b, int seat, const Outcome *o, const uint64_t *colmask) {
    switch (kind) {
    case TRICKS: return o->tricks_won[seat] == a;
    case COLOUR: return __builtin_popcountll(o->won[seat] & colmask[a]) == b;
    case LAST: return o->winners[o->n_played - 1] == seat;
    case FIRST: return o->winners[0] == seat;
    case NINES: return (q->flags & NINES_OWN) ? !((o->nine_lost >> seat) & 1) : o->nine_lost == 0;
    }
    return 0;
}

static int fail_targets(int s, int a, int players) {
    return a >= 0 ? 1 << a : ((1 << players) - 1) & ~(1 << s);
}

static int on_cycle(const Query *q, int result[][MAX_BETS], int s, int i, int pending) {
    int players = q->players;
    int reach = fail_targets(s, (int)CODE(q, s, i, 1), players) & pending;
    for (;;) {
        int more = reach;
        for (int t = 0; t < players; t++)
            if ((reach >> t) & 1)
                for (int j = 0; j < q->bcounts[t]; j++)
                    if (result[t][j] == PENDING)
                        more |= fail_targets(t, (int)CODE(q, t, j, 1), players) & pending;
        if ((more >> s) & 1) return 1;
        if (more == reach) return 0;
        reach = more;
    }
}

static void settle_fail_bets(const Query *q, int result[][MAX_BETS], int *failed) {
    int players = q->players;
    for (;;) {
        int progress = 0, waiting_any = 0;
        for (int s = 0; s < players; s++)
            for (int i = 0; i < q->bcounts[s]; i++) {
                if (result[s][i] != PENDING) continue;
                int targets = fail_targets(s, (int)CODE(q, s, i, 1), players);
                int hit = 0, waiting = 0;
                for (int t = 0; t < players; t++)
                    if ((targets >> t) & 1) {
                        if (failed[t]) hit = 1;
                        for (int j = 0; j < q->bcounts[t]; j++)
                            if (result[t][j] == PENDING) waiting = 1;
                    }
                if (hit) { result[s][i] = 1; progress = 1; }
                else if (!waiting) { result[s][i] = 0; failed[s] = 1; progress = 1; }
                else waiting_any = 1;
            }
        if (!waiting_any) return;
        if (!progress) {   /* only bets waiting on each other: the earliest placed one on a cycle loses */
            int pending = 0;
            for (int s = 0; s < players; s++)
                for (int i = 0; i < q->bcounts[s]; i++)
                    if (result[s][i] == PENDING) pending |= 1 << s;
            int fs = -1, fi = -1;
            int64_t first_rank = (int64_t)1 << 62;
            for (int s = 0; s < players; s++)
                for (int i = 0; i < q->bcounts[s]; i++)
                    if (result[s][i] == PENDING && CODE(q, s, i, 3) < first_rank && on_cycle(q, result, s, i, pending)) {
                        fs = s; fi = i; first_rank = CODE(q, s, i, 3);
                    }
            result[fs][fi] = 0;
            failed[fs] = 1;
        }
    }
}

static void settle(const Query *q, const Outcome *o, const uint64_t *colmask, int result[][MAX_BETS], int *failed) {
    int any_fail = 0;
    for (int s = 0; s < q->players; s++) {
        failed[s] = 0;
        for (int i = 0; i < q->bcounts[s]; i++) {
            int kind = (int)CODE(q, s, i, 0);
            if (kind == FAIL) { result[s][i] = PENDING; any_fail = 1; continue; }
            int ok = bet_won(q, kind, (int)CODE(q, s, i, 1), (int)CODE(q, s, i, 2), s, o, colmask);
            result[s][i] = ok;
            if (!ok) failed[s] = 1;
        }
    }
    if (any_fail) settle_fail_bets(q, result, failed);
}

static void count_fail_bets(const Query *q, int result[][MAX_BETS], const int *failed, int64_t *out) {
    int players = q->players, ask = q->ask, held = -2, any_failed = 0;
    for (int i = 0; i < q->bcounts[ask]; i++)
        if (CODE(q, ask, i, 0) == FAIL) {
            held = (int)CODE(q, ask, i, 1);
            if (result[ask][i]) out[held >= 0 ? held : players]++;
        }
    for (int t = 0; t < players; t++)
        if (t != ask && q->bcounts[t] > 0 && failed[t]) {
            any_failed = 1;
            if (t != held) out[t]++;
        }
    if (any_failed && held != -1) out[players]++;
}

static void odds_chunk(uint64_t seed, uint64_t stream, int64_t rounds, const Query *q, int64_t *row, int joint_i) {
    uint64_t rng[4];
    seed_state(seed, stream, rng);
    int players = q->players, n = q->n_pool;
    int pool[64];
    for (int i = 0; i < n; i++) pool[i] = (int)q->pool[i];
    uint64_t colmask[4], nines = 0;
    for (int c = 0; c < q->n_colours; c++) {
        colmask[c] = 0x1FFULL << (c * RANKS);
        nines |= 1ULL << (c * RANKS + RANKS - 1);
    }
    int result[MAX_PLAYERS][MAX_BETS];
    int failed[MAX_PLAYERS];
    uint64_t hands[MAX_PLAYERS];
    Outcome o;
    for (int64_t r = 0; r < rounds; r++) {
        /* the conditional deal: a shuffle of the hidden cards, two indices per 64-bit draw */
        int i = 0;
        for (; i < n - 2; i += 2) {
            uint64_t x = next_u64(rng);
            int j = i + (int)(((x >> 32) * (uint64_t)(n - i)) >> 32);
            int t = pool[i]; pool[i] = pool[j]; pool[j] = t;
            j = i + 1 + (int)(((x & 0xFFFFFFFFULL) * (uint64_t)(n - i - 1)) >> 32);
            t = pool[i + 1]; pool[i + 1] = pool[j]; pool[j] = t;
        }
        if (i == n - 2) {
            int j = i + (int)(((next_u64(rng) >> 32) * 2) >> 32);
            int t = pool[i]; pool[i] = pool[j]; pool[j] = t;
        }
        int pos = 0;
        for (int s = 0; s < players; s++) {
            uint64_t h = q->fixed[s];
            for (int k = 0; k < q->need[s]; k++) h |= 1ULL << pool[pos++];
            hands[s] = h;
            o.won[s] = 0;
            o.tricks_won[s] = 0;
        }
        /* the talon (its cards are the rest of the pool) is not read by random play */

        /* the trick phase: every seat plays a uniformly random legal card */
        int leader = q->leader;
        int n_tricks = __builtin_popcountll(hands[leader]);
        o.nine_lost = 0;
        for (int t = 0; t < n_tricks; t++) {
            uint64_t trick = 0, led_mask = 0;
            int best = -1, best_seat = -1;
            int s = leader;
            for (int p = 0; p < players; p++, s = s + 1 == players ? 0 : s + 1) {
                uint64_t h = hands[s], legal = h;
                if (p > 0 && (h & led_mask)) legal = h & led_mask;
                uint64_t k = ((next_u64(rng) >> 32) * (uint64_t)__builtin_popcountll(legal)) >> 32;
                int c = select_bit(legal, k);
                uint64_t b = 1ULL << c;
                hands[s] = h & ~b;
                trick |= b;
                if (p == 0) { led_mask = colmask[c / RANKS]; best = c; best_seat = s; }
                else if (c > best && c / RANKS == best / RANKS) { best = c; best_seat = s; }
                else if (b & nines) o.nine_lost |= 1 << s;
            }
            o.winners[t] = best_seat;
            o.tricks_won[best_seat]++;
            o.won[best_seat] |= trick;
            leader = best_seat;
        }
        o.n_played = n_tricks;

        settle(q, &o, colmask, result, failed);
        int ask = q->ask;
        for (int kind = 0; kind < N_KINDS; kind++) {
            int64_t base = q->slots[kind];
            switch (kind) {
            case TRICKS: row[base + o.tricks_won[ask]]++; break;
            case COLOUR:
                for (int col = 0; col < q->n_colours; col++)
                    row[base + col * (RANKS + 1) + __builtin_popcountll(o.won[ask] & colmask[col])]++;
                break;
            case FAIL: count_fail_bets(q, result, failed, row + base); break;
            default: if (bet_won(q, kind, 0, 0, ask, &o, colmask)) row[base]++;
            }
        }
        if (q->bcounts[ask] > 0 && !failed[ask]) row[joint_i]++;
    }
}

/* Every chunk of odds_chunks(seed, first_chunk, counts, ...) with every seat on
 * `random`, one after the other; out: n_chunks rows of n_stats counts (zeroed
 * here). Returns 0, or -1 for a table this loop does not take. */
int odds_random_chunks(uint64_t seed, int64_t first_chunk, const int64_t *counts, int64_t n_chunks,
                       const int64_t *pool, int64_t n_pool, const uint64_t *fixed, const int64_t *need,
                       int64_t players, uint64_t talon_fixed, int64_t talon_need, uint64_t revealed,
                       int64_t ask, int64_t leader, const int64_t *codes, int64_t max_bets,
                       const int64_t *bcounts, int64_t n_colours, int64_t flags,
                       const int64_t *slots, int64_t n_stats, int64_t *out) {
    if (players > MAX_PLAYERS || max_bets > MAX_BETS || n_pool > 64 || n_colours > 4) return -1;
    Query q = {(int)players, (int)ask, (int)leader, (int)n_colours, (int)flags, (int)max_bets,
               pool, (int)n_pool, fixed, need, talon_fixed, (int)talon_need, revealed,
               codes, bcounts, slots};
    memset(out, 0, sizeof(int64_t) * n_chunks * n_stats);
    for (int64_t i = 0; i < n_chunks; i++)
        odds_chunk(seed, (uint64_t)(first_chunk + i), counts[i], &q, out + i * n_stats, (int)n_stats - 1);
    return 0;
}
