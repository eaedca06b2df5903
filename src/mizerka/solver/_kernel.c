/*
 * mizerka.solver._kernel -- the accelerated double-dummy search (plain CPython C-API extension).
 *
 * The algorithm is the one of mizerka/solver/reference.py; read that first.  The game is two-sided
 * whatever the number of hands (2-4): `count_mask` names the players whose tricks make the value,
 * `max_mask` the players who maximise it; everyone else minimises.
 *
 * Techniques, following DDS (Haglund & Hein, "Search Algorithms for a Bridge Double Dummy Solver"):
 *
 *  1. Zero-window search.  reach() answers "can the max side make >= target tricks?"; the max side
 *     needs one move answering yes, the min side one answering no.  The driver solve_value() is
 *     MTD(f)-like: a first guess, then steps of one towards the value, the table keeping what each
 *     search learnt.  The guess is the counted side's share of the high-card points (trumps count
 *     one each), in solve_all the previous card's value, and in the misere zero: there the searches
 *     below the value are cheap and fill the table for the two that decide it (value and value + 1),
 *     so starting from the bottom costs less than starting close.
 *  2. Target too low / too high at each trick boundary (tricks already won, tricks left).
 *  3. Partition search (Ginsberg; DDS's "winning ranks"), with blocks.  Every search returns, with its
 *     answer, a set of "cuts": a card x in it says that the cards of its suit at or above x must stay
 *     above those below x.  Between two cuts the cards form a block in which only how many cards each
 *     hand holds matters, not their order: every comparison that decided a trick below crosses a cut,
 *     because a trick won by rank cuts just below its winner (rank_winner()).  The set is the union over
 *     the moves of a node that failed, the refuting move's set at a cut-off, the entry's cuts at a table
 *     hit, and the cuts a bound of step 6 relied on (most need one: "the leader's cards above every
 *     other" is a cut below the lowest of them; the misere's comparisons of lowest cards cut near the
 *     bottom of a suit; the joint run, which compares the side's cards with each other, cuts below
 *     every card down to its lowest winner, prefix_cuts()).  DDS keeps every card from the top down to
 *     the lowest winning rank: the block form fixes fewer owners, so an entry covers more positions
 *     (measured on benchmarks/solver_nodes.py: -18% nodes in the misere, -6 to -14% on no-trump sets).
 *     A card searched for its run of equivalent cards cuts below the run's bottom and above its top
 *     when a cut falls inside the run (run_bottom()): the run then stays a run in every position.
 *  4. Transposition table, trick boundaries only, entries of a lower and an upper bound on the tricks
 *     still to come.  An entry holds the suit lengths of every hand, the leader, the cuts of step 3 as
 *     relative ranks (in each suit the cards in play renumbered from the top, make_key()) and the
 *     relative holdings rewritten block by block with hand 0's cards at the top of each block, then
 *     hand 1's, ... (canon_key(); nothing below the lowest cut: the lengths say it).  So one entry
 *     answers for every position with the same lengths and the same number of cards of each hand in
 *     each block.  An entry whose blocks are single cards (the common case) is compared with two ANDs;
 *     otherwise the lookup compares, in each larger block, how many cards each hand holds.  Buckets of
 *     512 entries chosen by the suit lengths and leader (late in a deal few length patterns remain and
 *     each holds many positions: 64-entry buckets evicted half the useful entries); entries fill a
 *     bucket from the front, 16-bit tags are scanned sixteen at a time (SSE2) up to the count in use and
 *     only matching entries are read; an entry carries in its tag the owner of the top card of each
 *     suit whose top card its mask covers, so the scan skips most entries that cannot match (a lookup
 *     read ~37 entries of the right suit lengths; with the owners only of entries covering every suit's
 *     top card ~15 in the misere, ~8 with each suit's, top_owners()); the bucket's head is only
 *     prefetched before the bounds of step 6, so a node they cut off never waits for memory; a full bucket gives up the shallower of two random slots; a
 *     per-bucket generation stamp clears the table in O(1) at each new solve (it is kept across the
 *     searches of one solve or solve_all); bounded, 64 MB by default (set_table_size).
 *  5. Equivalent cards: only the top card of each run of a hand's cards with no other card in play
 *     between them is generated (cards on the table count as in play).  Small cards (Kuijf, DDS
 *     "NextMove"), for blocks: once a card failed, the hand's other cards of the suit in the same block
 *     of that card's cuts are skipped (playing one of them gives a position of the same class).
 *  6. Bounds at trick start, each with the winning ranks it relies on:
 *     - sure tricks of the side on lead (sure_trick_bounds()): the leader cashes his cards above every
 *       other hand, and the whole suit once those top cards outlast every other holding (length
 *       tricks); in a trump contract side suits only after his top trumps have drawn every other
 *       trump (then his small trumps are good too), else in every side suit as many rounds as every
 *       hand holding trumps must follow (the suits add up: following one never shortens another);
 *       or he crosses to a partner's top cards, and without trumps he first cashes his own while the
 *       partner can follow or throw cards he does not need; or the two hands run one suit together
 *       (joint_run(): the hand on lead cashes a card above the opponents' or leads low to the
 *       partner's, the opponents assumed to play low, which keeps their high cards), after which the
 *       hand left on lead cashes its own winners if it never had to discard;
 *     - trumps: the holder of the top trumps makes one trick per card of his unbroken run above all
 *       other trumps, and a side holding every trump makes at least its longest holding;
 *     - later tricks (DDS's LaterTricksMIN/MAX, later_tricks()): without trumps in play, a side on
 *       lead that needs every remaining trick can only win in suits whose top card it holds, at most
 *       its longest holding in each;
 *     - the misere (misere_bounds()): the seat is "stuck" in a suit when its lowest card beats every
 *       other hand's lowest; the others leading such a suit force a trick, a leader without one lets
 *       the seat duck this trick, the seat on lead exits safely where a hand must overtake its lowest
 *       card (or, forced to win this trick, keeps such an exit in another suit for the next), and a
 *       seat whose every card is on top takes every trick; a seat that can always play under the card
 *       led (in each suit, walking up, its cards seen never fall behind the others') wins only by
 *       leading, so it takes no more tricks (on lead: after one exit that some hand must overtake).
 *     The last trick is scored without search.
 *  6b. The trick in progress (after DDS's QuickTricksSecondHand, for every hand after the lead and both
 *     sides; trick_win_cut(), misere_trick_cut()): when the side holding the best card still to come of
 *     the suit led (or the only side able to ruff) wins this trick by force and that trick decides the
 *     search, no card of the trick is tried; in no-trump (or with no other hand holding a trump) the
 *     winner's cashing tricks on the next lead count too.  In the misere, the others force the trick on a seat that needs one more trick, and a
 *     seat that needs every trick left fails as soon as it can lose this one.  Every value unchanged;
 *     on benchmarks/solver_nodes.py trick starts -25% on full no-trump bridge deals, -31% on Mizerka
 *     no-trump, -32% at 9 tricks left, card nodes -8% in the misere; kernel instructions -5% on full
 *     no-trump bridge deals and in the misere (cachegrind): the trick starts saved were mostly ones
 *     that a bound cut off at once.
 *  7. Move ordering by position in the trick, DDS-style: at the lead, lead to a partner's top card,
 *     then suits a partner can ruff, then the side's own winners together with suits where the
 *     opponents are short and partners long (high with three hands), away from ruffs (cashing winners
 *     first was the failing first lead of most cut nodes); later, win as cheaply as can hold the trick,
 *     play low under a partner's sure winner or before a partner who will win the trick, overtake a
 *     partner high when a later opponent can beat him, duck with the lowest card, discard from long
 *     suits.  In Mizerka (everyone wants the OTHER side to take the trick) the seat leads a safe exit
 *     (its highest such card) after its low card in a suit where it is stuck, which another hand could
 *     still overtake, the others a suit where the seat is stuck or a high card where it can
 *     still duck (first where the seat holds a card above the lead); followers duck with the highest
 *     card that loses, win with the highest when they must, leave the trick to a later player who
 *     will take it, shed high cards.  Every lead outside the misere is ranked down by the opponents'
 *     length in its suit (a void opponent counts as six cards): each card an opponent can play is a
 *     branch, so the smaller tree comes first (DDS's suit weight; this halved the nodes of full bridge
 *     deals); so is the seat's lead in the misere, by the others' lengths (a void hand as ten); where
 *     no partner holds a card above the opponents', a finesse that cannot lose and a suit where the side
 *     holds the second and third best come first (lead_shape).  The card that proved the last
 *     cut-off of a table entry first; the killer move of the depth (the last cut-off there) only
 *     breaks ties between equal scores (put first, as DDS weighs it, it cost 3-4x the nodes of full
 *     deals), except for the lead of a no-trump bridge deal.  Every weight was kept only if it cut
 *     nodes on benchmarks/solver_nodes.py.
 */
#include "_glue.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

typedef uint64_t u64;

#define SUIT_BITS 0x1FFFULL
/* the cards of suit s: read from a table (a load, or an operand of the instruction that uses it, where the
   multiplication and the shift took 1.9% more of the kernel's instructions; a constant s folds as before) */
static const uint64_t suit_bits[4] = {SUIT_BITS, SUIT_BITS << 13, SUIT_BITS << 26, SUIT_BITS << 39};
#define SUIT(s) (suit_bits[s])
#define LANES 0x0001000100010001ULL
#define TOPS ((1ULL << 12) | (1ULL << 25) | (1ULL << 38) | (1ULL << 51))

static inline int popc(u64 x) { return __builtin_popcountll(x); }
/* the suit of a card 0-51: card * 5 / 64 equals card / 13 for every card 0-51 (an lea and a shift, where
   the division by 13 is a move, a multiplication and a shift: -0.5% of the kernel's instructions) */
static inline int suit_of(int card) { return (int)(((unsigned)card * 5u) >> 6); }
/* the highest set bit: clz xor 63, which gcc folds into the bsr it computes clz with, where 63 - clz left three more
   instructions at each use (bsr, xor, mov, sub: -1.4% of the kernel's instructions) */
static inline int top_bit(u64 x) { return __builtin_clzll(x) ^ 63; }
static inline int top_bit32(unsigned x) { return __builtin_clz(x) ^ 31; }

/* ---------------------------------------------------------------- transposition table -------- */

/* One entry covers every position with the same leader, the same suit lengths in every hand and the
   same owners of the cards that mattered: `mask` selects, in each suit, the top relative ranks down to
   the lowest card that won a trick by rank somewhere below this node (partition search).  k0..k2 are
   the relative holdings of hands 0..n-2 under that mask (the last hand holds the rest). */
typedef struct {
    u64 lens;           /* 4 bits per (hand, suit): bits 16 * hand + 4 * suit */
    u64 mask;           /* relative ranks that matter, packed at the top of each 13-bit suit field */
    u64 k0, k1, k2;     /* masked relative holdings */
    int8_t lower, upper; /* bounds on the counted tricks still to come */
    uint8_t ll;         /* leader | tricks left << 2 */
    uint8_t best;       /* the card that proved a cut-off here (absolute), 0xFF if none */
#ifdef DEBUGTT
    u64 dh[4]; int dres, dtarget, dwon;
#endif
} Entry; /* 48 bytes */

/* A bucket: a header (the generation that last wrote it, the number of entries in use), BUCKET 16-bit
   tags of the suit lengths and leader, then BUCKET entries.  Entries fill a bucket from the front, so a
   lookup scans only the tags in use (eight at a time with SSE2) and reads only the entries whose tag
   matches.  Buckets are large because they are chosen by the suit lengths and leader only: late in the
   play few length patterns remain and each one holds many positions (64-entry buckets lost half the
   useful entries of a full bridge deal to eviction; 512 halved its node count). */
#define BUCKET 512
typedef struct {
    uint32_t gen, count;
    uint16_t tags[BUCKET];
    Entry entries[BUCKET];
} Bucket;
#define BUCKET_BYTES sizeof(Bucket)
static unsigned char *table = NULL;
static void *table_block = NULL; /* the mapping that holds the table (table is its 2 MB-aligned start) */
static size_t table_block_bytes = 0;
static size_t n_buckets = 0;
static size_t table_size = 0;
static uint32_t generation = 1;
static u64 total_nodes = 0;

static int table_alloc(size_t bytes) {
    size_t buckets = bytes / BUCKET_BYTES;
    if (buckets < 1) buckets = 1;
    size_t size = buckets * BUCKET_BYTES;
    size_t huge = (size_t)1 << 21;
    size_t rounded = (size + huge - 1) & ~(huge - 1);
    /* 2 MB alignment + transparent huge pages: a 64 MB table probed at random otherwise costs a TLB
       miss (and, the first time, a page fault) per probe, which halved the node rate.  An anonymous
       mapping reads as zeros (every bucket's generation 0: empty) and the system clears each page when
       it is first touched, so the table is not cleared here: clearing all 64 MB up front made the first
       solve of a process take 30-200 ms on these machines, even for a three-card ending; now a solve
       pays only for the pages it touches */
    size_t span = rounded + huge;
    void *block = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (block == MAP_FAILED) return -1;
    unsigned char *start = (unsigned char *)(((uintptr_t)block + huge - 1) & ~(uintptr_t)(huge - 1));
#ifdef MADV_HUGEPAGE
    madvise(start, rounded, MADV_HUGEPAGE);
#endif
    if (table_block) munmap(table_block, table_block_bytes);
    table_block = block;
    table_block_bytes = span;
    table = start;
    n_buckets = buckets;
    table_size = size;
    generation = 1;
    return 0;
}

static inline Bucket *bucket_of(u64 lens, int leader, uint16_t *tag) {
    u64 h = (lens ^ ((u64)leader << 61) ^ ((u64)leader * 0x632BE59BD9B4E019ULL)) *
            0x9E3779B97F4A7C15ULL;
    h ^= h >> 31;
    h *= 0xC2B2AE3D27D4EB4FULL;
    h ^= h >> 29;
    *tag = (uint16_t)((h >> 48) & 0xAA); /* the odd bits of the low byte; the rest: see top_owners() */
    return (Bucket *)(table + (size_t)(((unsigned __int128)(h & 0xFFFFFFFFFFFFULL) * n_buckets) >> 48) * BUCKET_BYTES);
}

/* the number of entries in use; a bucket last written by an earlier solve is emptied first */
static inline int bucket_used(Bucket *b) {
    if (b->gen != generation) b->gen = generation, b->count = 0;
    return (int)b->count;
}

/* the tags among tags[from .. from + 7] equal to `tag` or `tag2`, below `count`: bits 2i, 2i + 1 per match i */
#if defined(__SSE2__)
#include <emmintrin.h>
static inline unsigned tag_matches(const uint16_t *tags, int from, int count, uint16_t tag, uint16_t tag2) {
    __m128i v = _mm_loadu_si128((const __m128i *)(tags + from));
    unsigned bits = (unsigned)_mm_movemask_epi8(
        _mm_or_si128(_mm_cmpeq_epi16(v, _mm_set1_epi16((short)tag)), _mm_cmpeq_epi16(v, _mm_set1_epi16((short)tag2))));
    return count - from >= 8 ? bits : bits & ((1u << (2 * (count - from))) - 1);
}
#else
static inline unsigned tag_matches(const uint16_t *tags, int from, int count, uint16_t tag, uint16_t tag2) {
    unsigned bits = 0;
    for (int i = 0; i < 8 && from + i < count; i++)
        if (tags[from + i] == tag || tags[from + i] == tag2) bits |= 3u << (2 * i);
    return bits;
}
#endif
/* the lookup's test: the tags among tags[from .. from + 15] below `count` that fit `pos` (bit i per fit i).
   A tag holds the hash bits of its bucket_of() tag (bits 1, 3, 5, 7), a "care" bit 2s for each suit s whose
   top card the entry's mask covers, and in the high byte that card's owner (two bits at 8 + 2s) for those
   suits only; `pos` has the position's hash bits, every care bit, and every suit's top owner.  A tag fits
   when pos, with its owners of the suits the tag does not care about masked off, equals it.  Sixteen tags
   a step, one bit each (eight a step, two bits each, took 0.2% more of the kernel's instructions) */
#if defined(__SSE2__)
static inline __m128i tag_fit8(__m128i v, __m128i pos) {
    __m128i care = _mm_and_si128(v, _mm_set1_epi16(0x55));
    __m128i keep = _mm_or_si128(_mm_or_si128(care, _mm_set1_epi16(0xAA)),
                                _mm_or_si128(_mm_slli_epi16(care, 8), _mm_slli_epi16(care, 9)));
    return _mm_cmpeq_epi16(_mm_and_si128(keep, pos), v);
}
static inline unsigned tag_fits(const uint16_t *tags, int from, int count, uint16_t pos) {
    __m128i p = _mm_set1_epi16((short)pos);
    __m128i a = tag_fit8(_mm_loadu_si128((const __m128i *)(tags + from)), p);
    __m128i b = tag_fit8(_mm_loadu_si128((const __m128i *)(tags + from + 8)), p);
    unsigned bits = (unsigned)_mm_movemask_epi8(_mm_packs_epi16(a, b));
    return count - from >= 16 ? bits : bits & ((1u << (count - from)) - 1);
}
#else
static inline unsigned tag_fits(const uint16_t *tags, int from, int count, uint16_t pos) {
    unsigned bits = 0;
    for (int i = 0; i < 16 && from + i < count; i++) {
        unsigned t = tags[from + i], care = t & 0x55;
        if ((pos & (0xAA | care | care << 8 | care << 9)) == t) bits |= 1u << i;
    }
    return bits;
}
#endif
/* for each entry index i < count whose tag is `tag` (ascending); `bits`/`from` are loop state */
#define FOR_TAGGED(b, count, tag, tag2, i)                                              \
    for (int from_ = 0; from_ < (count); from_ += 8)                                     \
        for (unsigned bits_ = tag_matches((b)->tags, from_, (count), (tag), (tag2)); bits_; \
             bits_ &= bits_ - 1, bits_ &= bits_ - 1)                                     \
            for (int i = from_ + (__builtin_ctz(bits_) >> 1), once_ = 1; once_; once_ = 0)
/* the same, last entries first (descending): the lookup's order.  A bucket fills from the front, so the
   scan meets the newest entries first, which are the likelier to fit (they come from the same region of the
   search).  Against the oldest-first scan: entries read per lookup in the misere 23.4 -> 15.5, in full
   no-trump bridge deals 6.7 -> 4.4, every value the same, nodes within +-1% (spades -6%: the table's best
   move now comes from the newest entry); kernel instructions -9% (misere) and -6% (bridge no-trump) under
   cachegrind, first-level data cache misses -17% and -21%.  Moving an entry that cut a search off towards
   the end as well read fewer entries still (13.1 and 3.9) but took no less time. */
#define FOR_TAGGED_REV(b, count, pos, i)                                                        \
    for (int from_ = ((count) - 1) & ~15; from_ >= 0; from_ -= 16)                               \
        for (unsigned bits_ = tag_fits((b)->tags, from_, (count), (pos)); bits_;                 \
             bits_ ^= 1u << top_bit32(bits_))                                                   \
            for (int i = from_ + top_bit32(bits_), once_ = 1; once_; once_ = 0)

/* ---------------------------------------------------------------- search state --------------- */

typedef struct {
    u64 hands[4];
    u64 all;  /* every card in the hands (kept by push and pop) */
    u64 lens; /* the suit lengths, 4 bits per (hand, suit) at 16 * hand + 4 * suit (kept by push and pop) */
    int n, trump, count_mask, max_mask, must_trump, wants;
    /* without trumps, the counted side's one seat (the misere's bounds apply); else -1.  Set once, where
       misere_bounds() and misere_trick_cut() tested it at each call (0.9% more of the kernel's instructions) */
    int lone_seat;
    unsigned char wrap_of[8]; /* wrap_of[i]: i mod n, for 0 <= i < 2n */
    int good[4]; /* good[p]: bit mask of the players whose trick wins player p prefers */
    int side_size[2]; /* hands on the side not counted [0] and on the counted side [1] */
    int leader, tlen;
    int trick[4];
    int win_off[4]; /* win_off[k]: offset of the winning card after k+1 cards */
    int killer[64];
    u64 nodes;
} State;

/* i mod n for 0 <= i < 2n, without a division (this runs several times a node): read from a table (a load, where the
   compare with n and the subtraction took 1.7% more of the kernel's instructions) */
static inline int wrap(const State *s, int i) { return s->wrap_of[i]; }

static inline u64 in_hands(const State *s) { return s->all; }

/* set `all` and `lens` from the hands (push and pop keep them from then on) */
static void init_derived(State *s) {
    s->all = s->lens = 0;
    for (int p = 0; p < s->n; p++) {
        s->all |= s->hands[p];
        for (int suit = 0; suit < 4; suit++)
            s->lens |= (u64)popc(s->hands[p] & SUIT(suit)) << (16 * p + 4 * suit);
    }
}

/* every card in play: held, or in the trick so far */
static inline u64 equiv_cards(const State *s) {
    u64 m = in_hands(s);
    for (int i = 0; i < s->tlen; i++) m |= 1ULL << s->trick[i];
    return m;
}

/* the card just above `card` in its suit among `in_play`, when `legal` (the same hand's cards) holds it: `card` is
   then equivalent to it (no card in play between them) and need not be searched apart; -1 otherwise */
static inline int equivalent_above(u64 legal, u64 in_play, int card) {
    u64 above = in_play & SUIT(suit_of(card)) & ~((2ULL << card) - 1);
    u64 next = above & -above;
    return (legal & next) ? __builtin_ctzll(next) : -1;
}

static inline u64 legal_of(const State *s, int player) {
    u64 hand = s->hands[player];
    if (s->tlen == 0) return hand;
    u64 follow = hand & SUIT(suit_of(s->trick[0]));
    if (follow) return follow;
    if (s->must_trump && s->trump >= 0 && (hand & SUIT(s->trump))) return hand & SUIT(s->trump);
    return hand;
}

/* does `card` beat `best` (the current winning card) under trump `trump`? */
static inline int beats(int card, int best, int trump) {
    if (suit_of(card) == suit_of(best)) return card > best;
    return suit_of(card) == trump;
}

/* play `player`'s card (the player to move, whom every caller knows: a wrap() less in push and in pop, -0.6%
   of the kernel's instructions); returns counted tricks gained (0/1); -1 when the trick is not complete */
static inline int push(State *s, int player, int card, int *saved_leader) {
    s->hands[player] &= ~(1ULL << card);
    s->all &= ~(1ULL << card);
    s->lens -= 1ULL << (16 * player + 4 * suit_of(card));
    if (s->tlen == 0) {
        s->win_off[0] = 0;
    } else {
        int w = s->win_off[s->tlen - 1];
        s->win_off[s->tlen] = beats(card, s->trick[w], s->trump) ? s->tlen : w;
    }
    s->trick[s->tlen++] = card;
    *saved_leader = s->leader;
    if (s->tlen == s->n) {
        int winner = wrap(s, s->leader + s->win_off[s->n - 1]);
        s->leader = winner;
        s->tlen = 0;
        return (s->count_mask >> winner) & 1;
    }
    return -1;
}

/* undo push(); `saved_trick` restores the trick a completed trick's successors overwrote */
static inline void pop(State *s, int player, int card, int saved_leader, int gained, const int *saved_trick) {
    if (gained >= 0) {
        s->tlen = s->n;
        /* all four slots (the caller saved all four): a fixed-size copy is two moves, where the loop over
           n - 1 cards compiled to a call of memcpy() (-0.5% of the kernel's instructions with memcpy's) */
        memcpy(s->trick, saved_trick, sizeof s->trick);
        s->trick[s->n - 1] = card;
    }
    s->leader = saved_leader;
    s->tlen--;
    s->hands[player] |= 1ULL << card;
    s->all |= 1ULL << card;
    s->lens += 1ULL << (16 * player + 4 * suit_of(card));
}

/* the cut a complete trick needs if it was won by rank (another card of its suit was played), else 0 */
static inline u64 rank_winner(const State *s, u64 in_play) {
    int w = s->trick[s->win_off[s->n - 1]];
    int suit = suit_of(w);
    /* `in_play`: the cards in play before the trick's last card (the hands and the whole trick), so the
       trick's cards are those no hand holds now: the highest loser without a loop over the trick (-2.2% of
       the kernel's instructions) */
    u64 losers = in_play & ~in_hands(s) & SUIT(suit) & ~(1ULL << w);
    if (!losers) return 0;
    int loser = top_bit(losers);
    /* any cut between the highest loser and the winner keeps the winner above every loser: just below
       the winner, except in the misere when the seat's card is the highest loser: just above it (cuts
       next to the seat's cards are shared by more of the proof's tricks: -2% nodes; above the highest
       loser in every trick cost 4% more nodes in the misere and 29-88% on the other sets) */
    if (!s->wants) {
        int seat = __builtin_ctz((unsigned)s->count_mask);
        int old_leader = wrap(s, s->leader - s->win_off[s->n - 1] + s->n);
        int seat_card = s->trick[wrap(s, seat - old_leader + s->n)];
        if (seat_card == loser) {
            u64 above = in_play & SUIT(suit) & ~((2ULL << loser) - 1);
            return above & -above;
        }
    }
    return 1ULL << w;
}

/* relative-rank holdings of a trick-boundary position: in each suit the cards in play are renumbered
   from the top (the highest card in play is bit 12 of its suit field, the next bit 11, ...) */
static void make_key(const State *s, u64 *k, u64 *lens_out) {
    k[0] = k[1] = k[2] = 0;
    for (int suit = 0; suit < 4; suit++) {
        u64 lanes = 0, r = 0;
        for (int p = 0; p < s->n; p++) {
            u64 h = (s->hands[p] >> (13 * suit)) & SUIT_BITS;
            lanes |= h << (16 * p);
            r |= h;
        }
        u64 gaps = ~r & SUIT_BITS;
        /* close the gaps from the bottom up: everything below a gap moves up one rank */
        while (gaps) {
            int q = __builtin_ctzll(gaps);
            gaps &= gaps - 1;
            u64 low = ((1ULL << q) - 1) * LANES;
            lanes = (lanes & ~low) | ((lanes & low) << 1);
        }
        for (int p = 0; p < s->n - 1; p++) k[p] |= ((lanes >> (16 * p)) & SUIT_BITS) << (13 * suit);
    }
    *lens_out = s->lens;
}

/* the relative ranks in use: in each suit field the top as many bits as the hands hold cards of the suit (computed
   once a node, for make_key_pext() and the cut conversions).  The suits' card counts are the nibble sums of the
   hands' suit lengths `lens` (two adds, each nibble at most 13: no carry), each count's field read from a table
   (against a popcount a suit and the shifts: -0.4% of the kernel's instructions) */
#define RANKS_OF(s, c) ((c) > 13 ? 0 : ((SUIT_BITS << (13 - (c))) & SUIT_BITS) << (13 * (s)))
#define RANKS_ROW(s)                                                                                              \
    {RANKS_OF(s, 0), RANKS_OF(s, 1), RANKS_OF(s, 2), RANKS_OF(s, 3), RANKS_OF(s, 4), RANKS_OF(s, 5),         \
     RANKS_OF(s, 6), RANKS_OF(s, 7), RANKS_OF(s, 8), RANKS_OF(s, 9), RANKS_OF(s, 10), RANKS_OF(s, 11),       \
     RANKS_OF(s, 12), RANKS_OF(s, 13), 0, 0}
static const u64 ranks_of[4][16] = {RANKS_ROW(0), RANKS_ROW(1), RANKS_ROW(2), RANKS_ROW(3)};
static inline u64 rel_ranks(u64 lens) {
    u64 t = lens + (lens >> 32);
    t += t >> 16; /* nibble s: the cards of suit s in the hands */
    return ranks_of[0][t & 15] | ranks_of[1][(t >> 4) & 15] | ranks_of[2][(t >> 8) & 15] | ranks_of[3][(t >> 12) & 15];
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#include <immintrin.h>
/* the same with BMI2's parallel bit extract: each hand's suit compressed onto the cards in play (-20%
   instructions of the whole search).  Chosen at load time (see PyInit__kernel): only where the CPU has
   BMI2 and pext is fast (not AMD before Zen 3, which microcodes it). */
/* one extract and one deposit a hand, the four suits at once (extracting suit by suit took 1.3% more of the
   kernel's instructions) */
__attribute__((target("bmi2,popcnt"))) static void make_key_pext(const State *s, u64 *k, u64 *lens_out, u64 ranks) {
    u64 all = s->all;
    k[0] = k[1] = k[2] = 0;
    for (int p = 0; p < s->n - 1; p++) k[p] = _pdep_u64(_pext_u64(s->hands[p], all), ranks);
    *lens_out = s->lens;
}
static int use_pext = 0;
static void choose_make_key(void) {
    __builtin_cpu_init();
    unsigned eax = 0, ebx, ecx, edx, family = 0;
    if (__get_cpuid(1, &eax, &ebx, &ecx, &edx)) {
        family = (eax >> 8) & 0xF;
        if (family == 0xF) family += (eax >> 20) & 0xFF;
    }
    use_pext = __builtin_cpu_supports("bmi2") && !(__builtin_cpu_is("amd") && family < 0x19);
}
#define MAKE_KEY(s, k, lens, ranks) (use_pext ? make_key_pext(s, k, lens, ranks) : make_key(s, k, lens))
#else
static void choose_make_key(void) {}
#define MAKE_KEY(s, k, lens, ranks) make_key(s, k, lens)
#endif

/* The owner of the top relative rank of each suit, two bits a suit, from the relative holdings k (hand p
   owns it if that bit is set in k[p], the last hand otherwise; a suit no one holds reads as the last hand's,
   alike in every position of the same suit lengths), without a loop: the bits of hands 1 and 2 (and of "no
   one of 0..n-2") are gathered from bit 12 of each suit field.  Each entry is tagged with these owners for
   the suits whose top card its mask covers (see tag_fits()), so a lookup's tag scan passes over the entries
   that cannot match without reading them.  Tagging only entries that cover every suit's top card (the
   others matched any position with their suit lengths) read 23.4 M entries for 1.6 M lookups of the
   cachegrind workload (12 misere and 8 no-trump bridge deals), 52% of them with another owner of a covered
   top card; tagged per suit, entries read per lookup 15.8 -> 7.6 in the misere, 2.4 -> 2.0 in no-trump
   bridge, kernel instructions -11% (every node count the same: the scan skips only entries that fail). */
static inline unsigned top_owners(const u64 *k, int n) {
    u64 none = TOPS & ~(k[0] | k[1] | k[2]);
    u64 lo = (k[1] & TOPS) | ((n - 1) & 1 ? none : 0), hi = (k[2] & TOPS) | ((n - 1) & 2 ? none : 0);
    u64 z = lo | hi << 1; /* suit s: bits 13s + 12 (low) and 13s + 13 (high) */
    return (unsigned)(((z >> 12) & 0x3) | ((z >> 23) & 0xC) | ((z >> 34) & 0x30) | ((z >> 45) & 0xC0));
}

/* the care bits of a tag (bit 2s: the mask covers the top card of suit s) */
static inline unsigned top_care(u64 mask) {
    u64 t = mask & TOPS;
    return (unsigned)(((t >> 12) | (t >> 23) | (t >> 34) | (t >> 45)) & 0x55);
}

/* Block partitions.  The winning ranks are kept as "cuts": a card x in a rel set means that the cards of
   its suit at or above x and those below x must keep their order (a cut just below x).  Between two cuts
   the cards form a block whose order does not matter: only how many of them each hand holds (a
   class of positions maps card to card inside each block by owner, and every comparison that decided
   a trick below -- the winner against a lower card of its suit -- crosses a cut).  The old "prefix"
   rule (every card from the top down to the lowest winning rank) is the case where every card above
   that rank is cut; the bounds that simulate play (the joint run) still ask for it, prefix_cuts(). */

/* every card in play of each suit at or above the lowest card of `rel` in that suit */
static inline u64 prefix_cuts(u64 rel, u64 in_play) {
    u64 out = 0;
    for (int suit = 0; suit < 4; suit++) {
        u64 r = rel & SUIT(suit);
        if (r) out |= in_play & SUIT(suit) & ~((r & -r) - 1);
    }
    return out;
}

/* the cards of a suit field (13 bits) of `ip` in play, relative ranks packed at the top: the relative
   rank of the i-th lowest card in play is 13 - n + i */
static inline u64 pext_soft(u64 x, u64 m) {
    u64 out = 0;
    for (int i = 0; m; m &= m - 1, i++)
        if (x & m & -m) out |= 1ULL << i;
    return out;
}
static inline u64 pdep_soft(u64 x, u64 m) {
    u64 out = 0;
    for (; m; m &= m - 1, x >>= 1)
        if (x & 1) out |= m & -m;
    return out;
}

#if defined(__x86_64__) && defined(__GNUC__)
/* the four suits at once, as make_key_pext() */
__attribute__((target("bmi2,popcnt"))) static u64 cuts_to_mask_hw(u64 cuts, u64 in_play, u64 ranks) {
    return _pdep_u64(_pext_u64(cuts, in_play), ranks);
}
__attribute__((target("bmi2,popcnt"))) static u64 mask_to_cuts_hw(u64 mask, u64 in_play, u64 ranks) {
    return _pdep_u64(_pext_u64(mask, ranks), in_play);
}
#define HW_CUTS use_pext
#else
#define HW_CUTS 0
#define cuts_to_mask_hw(cuts, in_play, ranks) 0
#define mask_to_cuts_hw(mask, in_play, ranks) 0
#endif

/* absolute cut cards -> relative cut mask (bit r of a suit field: a cut just below relative rank r) */
static inline u64 cuts_to_mask(u64 cuts, u64 in_play, u64 ranks) {
    if (HW_CUTS) return cuts_to_mask_hw(cuts, in_play, ranks);
    u64 m = 0;
    for (int suit = 0; suit < 4; suit++) {
        u64 c = (cuts >> (13 * suit)) & SUIT_BITS;
        if (!c) continue;
        u64 ip = (in_play >> (13 * suit)) & SUIT_BITS;
        m |= (pext_soft(c, ip) << (13 - popc(ip))) << (13 * suit);
    }
    return m;
}

/* relative cut mask -> absolute cut cards at this position */
static inline u64 mask_to_cuts(u64 mask, u64 in_play, u64 ranks) {
    if (HW_CUTS) return mask_to_cuts_hw(mask, in_play, ranks);
    u64 out = 0;
    for (int suit = 0; suit < 4; suit++) {
        u64 f = (mask >> (13 * suit)) & SUIT_BITS;
        if (!f) continue;
        u64 ip = (in_play >> (13 * suit)) & SUIT_BITS;
        out |= pdep_soft(f >> (13 - popc(ip)), ip) << (13 * suit);
    }
    return out;
}

/* The class key of relative holdings k (hands 0..n-2) under cut mask `mask`: in each suit, above the
   lowest cut, each block (from a cut up to the next cut) is rewritten with hand 0's cards at its top,
   then hand 1's, then hand 2's; below the lowest cut nothing is kept (the suit lengths say the rest).
   A single-card block is kept as it is (`single`: a cut whose next rank up is cut too, or the suit's top
   rank), so only the blocks of two cards or more are walked, over all four suits at once: a block ends
   below the next cut up or at its suit's top (bit 13 of the suit field, TOPS << 1).  Walking every
   block of every non-prefix suit instead took 4% more of the kernel's instructions. */
static inline void canon_key(const u64 *k, u64 mask, int n, u64 *out) {
    u64 single = mask & ((mask >> 1) | TOPS), ends = mask | (TOPS << 1);
    out[0] = k[0] & single, out[1] = k[1] & single, out[2] = k[2] & single;
    for (u64 starts = mask & ~single; starts; starts &= starts - 1) {
        int lo = __builtin_ctzll(starts);
        int top = __builtin_ctzll(ends & ~((2ULL << lo) - 1)); /* the block: bits lo .. top - 1 */
        u64 block = (1ULL << top) - (1ULL << lo);
        for (int p = 0; p < n - 1; p++) {
            int c = popc(k[p] & block);
            out[p] |= (1ULL << top) - (1ULL << (top - c));
            top -= c;
        }
    }
}

/* do relative holdings k and the entry's key (a class key under its mask m) hold, in every block of two
   cards or more, the same number of cards of each hand?  (`single`: m's single-card blocks) */
static inline int blocks_match(const u64 *k, const Entry *e, u64 m, u64 single, int n) {
    const u64 ek[3] = {e->k0, e->k1, e->k2};
    u64 ends = m | (TOPS << 1);
    for (u64 starts = m & ~single; starts; starts &= starts - 1) {
        int lo = __builtin_ctzll(starts);
        u64 block = (1ULL << __builtin_ctzll(ends & ~((2ULL << lo) - 1))) - (1ULL << lo);
        for (int p = 0; p < n - 1; p++)
            if (popc(k[p] & block) != popc(ek[p] & block)) return 0;
    }
    return 1;
}

/* the prefix closure of a cut mask: every relative rank from the top down to the lowest cut */
static inline u64 mask_prefix(u64 mask) {
    u64 m = 0;
    for (int suit = 0; suit < 4; suit++) {
        u64 f = (mask >> (13 * suit)) & SUIT_BITS;
        if (f) m |= (SUIT_BITS & ~((f & -f) - 1)) << (13 * suit);
    }
    return m;
}

/* ---------------------------------------------------------------- bounds --------------------- */

/* the cards of `mine` (one suit) above every card of `others`; 0 if none */
static inline u64 above_all(u64 mine, u64 others) {
    if (!others) return mine;
    return mine & ~((2ULL << top_bit(others)) - 1);
}

/* the longest holding of `suit` among the hands other than `player` */
static inline int longest_other(const State *s, int player, int suit) {
    int longest = 0;
    for (int p = 0; p < s->n; p++)
        if (p != player && popc(s->hands[p] & SUIT(suit)) > longest) longest = popc(s->hands[p] & SUIT(suit));
    return longest;
}

/* tricks `player` cashes on lead in `suit` (no ruff possible), `top` being his cards above all others':
   the top cards, and every card of the suit once the top cards have outlasted every other holding
   (the length tricks; partners' cards too are exhausted, so the lead never leaves the hand) */
static inline int cashable(const State *s, int player, int suit, u64 top) {
    int ntop = popc(top);
    return ntop >= longest_other(s, player, suit) ? popc(s->hands[player] & SUIT(suit)) : ntop;
}

/* own cashing tricks of `player` on lead, every suit but `skip`, for the joint run below: no-trump, or
   a trump contract where no other hand holds a trump (then trumps cash like any suit) */
static int own_tricks(const State *s, int player, int skip, u64 *rel) {
    u64 others = s->all & ~s->hands[player];
    if (s->trump >= 0 && (others & SUIT(s->trump))) return 0;
    int count = 0;
    for (int suit = 0; suit < 4; suit++) {
        if (suit == skip) continue;
        u64 top = above_all(s->hands[player] & SUIT(suit), others & SUIT(suit));
        if (top) count += cashable(s, player, suit, top), *rel |= top & -top;
    }
    return count;
}

/* Joint run of one suit by the leader and a partner (DDS's quick tricks over both hands of a side): the
   hand on lead leads its highest card above every opponent's card of the suit (the partner following
   with his lowest card) or, without one, its lowest card to the partner's highest such card; the lead
   stays with whoever won.  The opponents are assumed to follow with their lowest cards, which keeps
   their highest cards, so every trick counted is won whatever they play.  Opponents' cards run out,
   after which every card of the side is above them (length tricks).  The run stops when the hand on
   lead has no card of the suit, when the trick could be ruffed (an opponent holding trumps is void, or
   a partner void in the suit would have to trump), or when neither hand has a card above the
   opponents'.  Then the hand left on lead adds its own cashing tricks in the other suits if it never
   had to discard (others' discards only weaken their holdings).  *rel: the lowest card of the side that
   won a trick of the run (the run depends on no card below it), and the cashing tricks' ranks. */
static int joint_run(const State *s, int leader, int partner, int suit, u64 *rel) {
    int hand_of[2] = {leader, partner};
    u64 h[2] = {s->hands[leader] & SUIT(suit), s->hands[partner] & SUIT(suit)}, opp[4];
    int n_opp = 0, ruffers = 0;
    for (int p = 0; p < s->n; p++) {
        if (((s->count_mask >> p) & 1) == ((s->count_mask >> leader) & 1)) continue;
        opp[n_opp] = s->hands[p] & SUIT(suit);
        if (s->trump >= 0 && suit != s->trump && (s->hands[p] & SUIT(s->trump))) ruffers |= 1 << n_opp;
        n_opp++;
    }
    int on = 0, count = 0, discarded[2] = {0, 0};
    u64 low = 0;
    for (;;) {
        if (!h[on]) break;
        int stop = 0;
        u64 oall = 0;
        for (int i = 0; i < n_opp; i++) {
            if (!opp[i] && ((ruffers >> i) & 1)) stop = 1;
            oall |= opp[i];
        }
        int other = !on;
        if (!h[other] && s->trump >= 0 && suit != s->trump && (s->hands[hand_of[other]] & SUIT(s->trump)) &&
            (s->must_trump || !(s->hands[hand_of[other]] & ~SUIT(s->trump))))
            stop = 1; /* the partner, void, would have to trump */
        if (stop) break;
        u64 above = oall ? ~((2ULL << top_bit(oall)) - 1) : ~0ULL;
        u64 win_on = h[on] & above, win_other = h[other] & above;
        int lead, follow = -1;
        if (win_on) {
            lead = top_bit(win_on);
            if (h[other]) follow = __builtin_ctzll(h[other]);
        } else if (win_other && h[on]) {
            lead = __builtin_ctzll(h[on]);
            follow = top_bit(win_other);
        } else {
            break;
        }
        h[on] &= ~(1ULL << lead);
        if (follow >= 0) h[other] &= ~(1ULL << follow);
        else discarded[other] = 1;
        int winner = follow > lead ? other : on, card = follow > lead ? follow : lead;
        if (!low || card < __builtin_ctzll(low)) low = 1ULL << card;
        for (int i = 0; i < n_opp; i++) opp[i] &= opp[i] - 1;
        count++;
        on = winner;
    }
    if (!count) return 0;
    *rel |= prefix_cuts(low, in_hands(s)); /* the run compares the side's cards with each other's */
    if (!discarded[on]) count += own_tricks(s, hand_of[on], suit, rel);
    return count;
}

/* Quick tricks of the side on lead across both of its hands (DDS's QuickTricks with entries both ways),
   without trumps in play: the hand on lead cashes a card above every opponent's card of its suit, in a
   suit where the partner has no such card first (the partner following low or discarding), then in a
   suit where both have one (the partner following low, overtaking if he must), and with no winner left
   it crosses, leading low to the partner's lowest winner of a suit; the lead stays with whoever won, so
   the run goes on in any suit and either hand, as far as the winners and entries reach, stopping at
   `need`.  The opponents are assumed to follow with their lowest cards and to keep every card when void,
   which leaves each of their holdings at least as high as in any real play, so every trick counted is
   won whatever they do (the joint run's argument, over all suits).  A void hand of the side discards
   its lowest card of a suit where the side has no winner at all (no play leads them), else its lowest
   card (the plan plays on with the cards left, so any discard is sound; keeping the idle cards for
   discards cost 1.5% more nodes).  Without trumps in play, or in a trump contract where the opponents
   have none and no one must trump.  *rel: in each suit where a trick was won, every card from the top
   down to the lowest winning card of the side (the plan compares the side's cards with each other, and
   an opponent's high card may fall under a winner when it is his last card of the suit). */
static int side_run(const State *s, int leader, int partner, int need, u64 *rel) {
    u64 h[2] = {s->hands[leader], s->hands[partner]}, o[4], oall = 0;
    int n_opp = 0;
    for (int p = 0; p < s->n; p++)
        if (((s->count_mask >> p) & 1) != ((s->count_mask >> leader) & 1)) oall |= o[n_opp++] = s->hands[p];
    u64 idle = 0, pwin = 0, lsuits = 0;
    /* at most, in each suit: the side's cards above the opponents' top card while the opponent holding
       it still has cards of the suit, and no more than its longer holding (none where it lacks the top) */
    int most = 0;
    for (int suit = 0; suit < 4; suit++) {
        u64 side = (h[0] | h[1]) & SUIT(suit), os = oall & SUIT(suit);
        pwin |= above_all(h[1] & SUIT(suit), os);
        if (h[0] & SUIT(suit)) lsuits |= SUIT(suit);
        u64 top = above_all(side, os);
        if (!top) {
            idle |= SUIT(suit);
            continue;
        }
        int longer = popc(h[0] & SUIT(suit)) > popc(h[1] & SUIT(suit)) ? popc(h[0] & SUIT(suit))
                                                                      : popc(h[1] & SUIT(suit));
        if (os) {
            int i = 0;
            while (!(o[i] >> top_bit(os) & 1)) i++;
            if (popc(top) < popc(o[i] & SUIT(suit))) longer = popc(top);
        }
        most += longer;
    }
    /* without an entry to the partner the leader cashes alone, which the bounds above count */
    if (most < need || !(pwin & lsuits)) return 0;
    int on = 0, count = 0;
    u64 won = 0;
    while (count < need) {
        int other = !on;
        u64 win[2] = {0, 0};
        for (int suit = 0; suit < 4; suit++) {
            u64 os = oall & SUIT(suit);
            win[0] |= above_all(h[0] & SUIT(suit), os);
            win[1] |= above_all(h[1] & SUIT(suit), os);
        }
        int lead = -1, follow = -1;
        /* 1: a winner where the partner has none (he follows low, or discards an idle card) */
        for (int suit = 0; suit < 4 && lead < 0; suit++) {
            u64 w = win[on] & SUIT(suit);
            if (!w || (win[other] & SUIT(suit))) continue;
            u64 f = h[other] & SUIT(suit);
            if (f) lead = top_bit(w), follow = __builtin_ctzll(f);
            else lead = top_bit(w), follow = __builtin_ctzll(h[other] & idle ? h[other] & idle : h[other]);
        }
        /* 2: a winner where the partner has one too (he follows with his lowest card) */
        for (int suit = 0; suit < 4 && lead < 0; suit++) {
            u64 w = win[on] & SUIT(suit);
            if (w && (win[other] & SUIT(suit))) lead = top_bit(w), follow = __builtin_ctzll(h[other] & SUIT(suit));
        }
        /* 3: cross, low to the partner's lowest winner */
        for (int suit = 0; suit < 4 && lead < 0; suit++) {
            u64 w = win[other] & SUIT(suit), m = h[on] & SUIT(suit);
            if (w && m) lead = __builtin_ctzll(m), follow = __builtin_ctzll(w);
        }
        if (lead < 0) break;
        h[on] &= ~(1ULL << lead);
        h[other] &= ~(1ULL << follow);
        u64 led = SUIT(suit_of(lead));
        oall = 0;
        for (int i = 0; i < n_opp; i++) {
            u64 m = o[i] & led;
            o[i] &= ~(m & -m);
            oall |= o[i];
        }
        int over = (1ULL << follow) & led && follow > lead;
        won |= 1ULL << (over ? follow : lead);
        if (over) on = other;
        count++;
    }
    if (count) *rel |= prefix_cuts(won, in_hands(s));
    return count;
}

/* sure tricks (see the header, step 6): the leader's side cashes its top cards (and length tricks),
   or crosses to a partner's; the holder of the top trumps makes his run; a side with every trump makes
   its longest holding.  The leader's count stops once it reaches `need`, the count that cuts off (fewer
   winning ranks to keep).  Each bound comes with the winning ranks it relies on. */
static void sure_trick_bounds(const State *s, int left, int need, int *lower, u64 *rel_lower, int *upper,
                              u64 *rel_upper) {
    int leader = s->leader;
    u64 hand = s->hands[leader];
    u64 others = s->all & ~hand;
    int quick = 0, drawn = 1;
    u64 qrel = 0;
    if (s->trump >= 0) {
        u64 m = SUIT(s->trump);
        u64 top = above_all(hand & m, others & m);
        int ntop = popc(top);
        if (top) qrel |= top & -top;
        drawn = ntop >= longest_other(s, leader, s->trump);
        /* once the top trumps have drawn every other trump, the leader's small trumps are winners too */
        quick += drawn ? popc(hand & m) : ntop;
    }
    if (drawn) {
        for (int suit = 0; suit < 4; suit++) {
            if (suit == s->trump) continue;
            u64 top = above_all(hand & SUIT(suit), others & SUIT(suit));
            if (top) {
                quick += cashable(s, leader, suit, top);
                qrel |= top & -top;
            }
        }
    } else {
        /* trumps out: the side suits first, in each as many rounds of top cards as every other hand
           holding trumps has cards of the suit (no one can ruff; following one suit never shortens
           another, so the suits add up), then the top trumps */
        for (int suit = 0; suit < 4; suit++) {
            if (suit == s->trump) continue;
            u64 top = above_all(hand & SUIT(suit), others & SUIT(suit));
            int k = popc(top);
            for (int p = 0; p < s->n && k; p++)
                if (p != leader && (s->hands[p] & SUIT(s->trump)) && popc(s->hands[p] & SUIT(suit)) < k)
                    k = popc(s->hands[p] & SUIT(suit));
            if (k) quick += k, qrel |= top & -top;
        }
    }
    if (quick >= need) goto done; /* enough for the cut-off, and fewer winning ranks to keep */
    /* or cross to a partner: lead a card of a suit where the partner holds the top card, and let the
       partner cash every card above all others' (no-trump, or no opponent left with a trump) */
    u64 opp_trumps = 0;
    for (int p = 0; p < s->n; p++)
        if (((s->count_mask >> p) & 1) != ((s->count_mask >> leader) & 1)) opp_trumps |= s->hands[p];
    opp_trumps &= s->trump >= 0 ? SUIT(s->trump) : 0;
    if (!opp_trumps)
        for (int partner = 0; partner < s->n; partner++) {
            if (partner == leader || ((s->count_mask >> partner) & 1) != ((s->count_mask >> leader) & 1)) continue;
            u64 mine = s->hands[partner], rest = 0;
            /* must-trump: a hand of the side void in the partner's suit would have to ruff his winner
               and take the lead from him */
            if (s->must_trump && s->trump >= 0 && (in_hands(s) & ~mine & SUIT(s->trump))) continue;
            for (int p = 0; p < s->n; p++)
                if (p != partner) rest |= s->hands[p];
            int total = 0, entry = 0;
            u64 prel = 0, psuits = 0;
            for (int suit = 0; suit < 4; suit++) {
                u64 top = above_all(mine & SUIT(suit), rest & SUIT(suit));
                if (!top) continue;
                total += cashable(s, partner, suit, top);
                prel |= top & -top;
                psuits |= SUIT(suit);
                if (hand & SUIT(suit)) entry = 1;
            }
            if (!entry) continue;
            if (total > quick) quick = total, qrel = prel;
            if (s->trump >= 0 && (in_hands(s) & SUIT(s->trump))) continue;
            /* no trumps at all: the leader first cashes his own winners, the partner following or
               discarding cards he does not need (outside his winning suits and the suits cashed), then
               the leader crosses to the partner */
            int own = 0, discards = 0;
            u64 orel = 0, osuits = 0;
            for (int suit = 0; suit < 4; suit++) {
                u64 top = above_all(hand & SUIT(suit), others & SUIT(suit));
                if (!top) continue;
                int rounds = cashable(s, leader, suit, top), follows = popc(mine & SUIT(suit));
                own += rounds;
                orel |= top & -top;
                osuits |= SUIT(suit);
                if (rounds > follows) discards += rounds - follows;
            }
            if (own && discards <= popc(mine & ~psuits & ~osuits) && own + total > quick)
                quick = own + total, qrel = orel | prel;
        }
    /* the joint and side runs follow two hands of the side: a third (four hands, one seat against three)
       could be forced to overtake with his only cards of the suit and take the lead */
    if (s->side_size[(s->count_mask >> leader) & 1] > 2) goto done;
    if (quick < need)
        for (int partner = 0; partner < s->n; partner++) {
            if (partner == leader || ((s->count_mask >> partner) & 1) != ((s->count_mask >> leader) & 1)) continue;
            for (int suit = 0; suit < 4; suit++) {
                if (!(hand & SUIT(suit))) continue;
                u64 r = 0;
                int run = joint_run(s, leader, partner, suit, &r);
                if (run > quick) quick = run, qrel = r;
            }
        }
    if (quick < need && (s->trump < 0 || (!opp_trumps && !s->must_trump) || !(in_hands(s) & SUIT(s->trump))))
        for (int partner = 0; partner < s->n; partner++) {
            if (partner == leader || ((s->count_mask >> partner) & 1) != ((s->count_mask >> leader) & 1)) continue;
            u64 r = 0;
            int run = side_run(s, leader, partner, need, &r);
            if (run > quick) quick = run, qrel = r;
        }
done:
    if (quick > left) quick = left;
    *lower = 0, *upper = left, *rel_lower = 0, *rel_upper = 0;
    if ((s->count_mask >> leader) & 1) {
        *lower = quick, *rel_lower = qrel;
    } else {
        *upper = left - quick, *rel_upper = qrel;
    }
    if (s->trump >= 0) {
        u64 all_trumps = (hand | others) & SUIT(s->trump);
        if (all_trumps) {
            /* the holder of the top trumps makes one trick with each card of his unbroken run above
               every other trump: such a card wins whenever it is played, and he never has to throw it
               away (void in the led suit with only such cards left, he ruffs with one) */
            u64 top = 1ULL << top_bit(all_trumps);
            int holder = 0;
            while (!(s->hands[holder] & top)) holder++;
            u64 run = above_all(s->hands[holder] & SUIT(s->trump), all_trumps & ~s->hands[holder]);
            int sure = popc(run);
            /* a side holding every trump makes at least its longest holding: each trick its longest
               hand plays a trump in (following, ruffing or leading) is won by one of its trumps */
            int longest[2] = {0, 0}, has[2] = {0, 0};
            for (int p = 0; p < s->n; p++) {
                int side = (s->count_mask >> p) & 1, t = popc(s->hands[p] & SUIT(s->trump));
                if (t) has[side] = 1;
                if (t > longest[side]) longest[side] = t;
            }
            int holder_side = (s->count_mask >> holder) & 1;
            if (!has[!holder_side] && longest[holder_side] > sure) sure = longest[holder_side], run = 0;
            if ((s->count_mask >> holder) & 1) {
                if (*lower < sure) *lower = sure, *rel_lower = run & -run;
            } else if (*upper > left - sure) {
                *upper = left - sure, *rel_upper = run & -run;
            }
        }
    }
}

/* Later tricks (DDS's LaterTricksMIN / LaterTricksMAX), when no trump is in play and the side on lead
   needs every remaining trick: it keeps the lead only by winning each trick, and it can win a trick only
   in a suit whose top card in play it holds (the other side never has to give up a top card: it would
   need a hand of nothing but top cards of other suits).  Each such suit carries at most as many tricks
   as the side's longest holding in it.  Returns 1 when those lengths add up to fewer than `left`, with
   the winning ranks: the other side's top cards (where another hand holds cards of the suit). */
static int later_tricks(const State *s, int left, u64 in_play, u64 *rel) {
    int side = (s->max_mask >> s->leader) & 1, sum = 0;
    u64 r = 0;
    for (int suit = 0; suit < 4; suit++) {
        u64 cards = in_play & SUIT(suit);
        if (!cards) continue;
        u64 top = 1ULL << top_bit(cards);
        int holder = 0;
        while (!(s->hands[holder] & top)) holder++;
        if (((s->max_mask >> holder) & 1) == side) {
            int longest = 0;
            for (int p = 0; p < s->n; p++)
                if (((s->max_mask >> p) & 1) == side && popc(s->hands[p] & SUIT(suit)) > longest)
                    longest = popc(s->hands[p] & SUIT(suit));
            sum += longest;
        } else if (cards & ~s->hands[holder]) {
            r |= top;
        }
    }
    *rel = r;
    return sum < left;
}

/* Can the seat, following, always play under the card led in a suit (m: its cards, t: the others')?
   Walking up the suit the seat's cards seen never fall behind the others' until all the seat's are seen. */
static inline int ducks_all(u64 m, u64 t) {
    int k = popc(m), mine = 0, theirs = 0;
    for (u64 all = m | t; all; all &= all - 1) {
        if ((m >> __builtin_ctzll(all)) & 1) {
            if (++mine == k) return 1;
        } else if (++theirs > mine) {
            return 0;
        }
    }
    return 1;
}

/* The same test, with the cuts a table entry needs (*cuts): the coarsest blocks up the suit, from the
   others' lowest card, such that the test still passes with each block's cards of the others put under
   its cards of the seat (within a block only the number each hand holds is kept; the others' blocks may
   be split between them as they will: the test does not ask which of them holds a card) */
static inline int ducks_cut(u64 m, u64 t, u64 *cuts) {
    int k = popc(m);
    u64 low = t & -t;
    int mine = popc(m & (low - 1)), theirs = 0, block_mine = 0, block_theirs = 0; /* before the block, in it */
    *cuts |= low;
    for (u64 all = (m | t) & ~(low - 1); all && mine < k; all &= all - 1) {
        int card = __builtin_ctzll(all);
        if ((m >> card) & 1) {
            block_mine++;
            continue;
        }
        if (mine < (theirs + block_theirs + 1 < k ? theirs + block_theirs + 1 : k)) {
            mine += block_mine, theirs += block_theirs, block_mine = block_theirs = 0;
            if (mine < (theirs + 1 < k ? theirs + 1 : k)) return 0;
            *cuts |= 1ULL << card;
        }
        block_theirs++;
    }
    return 1;
}

/* the cuts that keep how the seat's cards (m) and the others' (t) of a suit interleave: below the others'
   lowest card and wherever the owner changes */
static inline u64 duck_cuts(u64 m, u64 t) {
    u64 cuts = t & -t, all = (m | t) & ~(cuts - 1);
    int prev = 0;
    for (; all; all &= all - 1) {
        int c = __builtin_ctzll(all), mine = (int)((m >> c) & 1);
        if (mine != prev) {
            cuts |= 1ULL << c;
            if (!mine && !(m >> c)) break;
            prev = mine;
        }
    }
    return cuts;
}

/* The seat on lead exits in a suit (m, t as above) with its highest card under `high_low`, the lowest
   card of a hand holding only higher cards of the suit (that hand must overtake): does the rest of the
   suit still duck?  If so, *cuts gets the cuts this relies on: at every change of owner, and below
   that hand's lowest card. */
static inline int exit_ducks(u64 m, u64 t, int high_low, u64 *cuts) {
    u64 under = m & ((1ULL << high_low) - 1);
    if (!ducks_all(m & ~(1ULL << top_bit(under)), t)) return 0;
    *cuts |= duck_cuts(m, t) | (1ULL << high_low);
    return 1;
}

/* the lowest card of each suit of x, the four suits at once: x & -x in each 13-bit suit field, the even
   suits and the odd suits apart, so that the carry out of an empty suit falls in a suit not computed (a loop
   over the hands in each suit in misere_bounds() took 2.5% more of the kernel's instructions) */
static inline u64 suit_lows(u64 x) {
    const u64 even = SUIT(0) | SUIT(2), odd = SUIT(1) | SUIT(3), bottoms = 1ULL | 1ULL << 13 | 1ULL << 26 | 1ULL << 39;
    return x & ((((~x & even) + (bottoms & even)) & even) | (((~x & odd) + (bottoms & odd)) & odd));
}

/* Mizerka (the counted seat wants few tricks, the others want it to take them), no trumps.  In a suit
   the seat holds, call the seat "stuck" when its lowest card beats every other hand's lowest card of the
   suit: the others, playing their lowest, leave the trick to the seat whatever it plays, while a hand
   whose every card of the suit is above the seat's lowest card must overtake it.  So:
   - the seat ducks every trick left (upper bound 0) when in every suit it can always play under the
     card led (ducks_cut()), with the others on lead, or on lead with an exit (below);
   - the others on lead: leading a suit where the seat is stuck forces a trick on it (lower bound 1);
     if the leader has no such suit, the seat ducks this trick (upper bound: all tricks but one), and
     so it does when after each such lead it keeps an exit in another suit (it ducks the next trick);
   - the seat on lead: leading its lowest card where it is not stuck gives the trick away (upper bound:
     all but one); stuck in every suit, it takes this trick (lower bound 1); and if every card it holds
     is above all others' cards of its suit it takes every trick.
   Each bound comes with the cuts it needs, most of them one per suit it read, near the bottom of the
   suit (the ducking test needs more, see ducks_cut()): "the seat's lowest card beats every other
   hand's lowest" holds in every position with a cut below the seat's lowest card (each other hand
   keeps a card in the block under it), "a hand holds only cards above the seat's lowest" with a cut
   below that hand's lowest card. */
static void misere_bounds(const State *s, int left, int *lower, u64 *rel_lower, int *upper, u64 *rel_upper) {
    int seat = s->lone_seat;
    if (seat < 0) return;
    u64 mine = s->hands[seat], theirs = s->all & ~mine;
    u64 others_low = 0; /* every other hand's lowest card of each suit */
    for (int p = 0; p < s->n; p++)
        if (p != seat) others_low |= suit_lows(s->hands[p]);
    /* the others' highest lowest card of a suit where the seat is not stuck */
#define HIGH_LOW(suit) top_bit(others_low & SUIT(suit))
    /* Every suit at once: `lows`, the seat's lowest card of each suit it holds; `from_low`, in each suit it
       holds, that card and every rank above it (2^13 less the card, in each suit field: the even suits and the
       odd suits apart, so that the bit left over from a suit it does not hold falls in a suit not computed).  So
       in a suit the seat holds, it is stuck where no other hand's lowest card lies in from_low (`loose` holds
       none of the suit), and every other card is under its lowest where `theirs` has none there.  (Against a
       loop over the suits that kept these per suit: -2.0% of the kernel's instructions.) */
    const u64 even = SUIT(0) | SUIT(2), odd = SUIT(1) | SUIT(3);
    u64 lows = suit_lows(mine);
    u64 from_low = (((1ULL << 13 | 1ULL << 39) - (lows & even)) & even) |
                   (((1ULL << 26 | 1ULL << 52) - (lows & odd)) & odd);
    u64 loose = others_low & from_low;
#define STUCK(suit) (!(loose & SUIT(suit))) /* (in a suit the seat holds) */
#define LOW(suit) (lows & SUIT(suit))
    /* "ducks": in every suit the seat can always play under the card led.  Walking up the suit, the
       seat must have seen at least as many of its own cards as of the others' (until it has seen them
       all): then the seat's i-th lowest card is under the others' i-th lowest, and answering each lead
       with its highest card under the card led (discarding its top cards when void) keeps it so.  The
       seat, never winning a trick, never leads: with the others on lead it takes no more tricks.  On
       lead it exits with its highest card under the lowest card of some hand that holds only higher
       cards of the suit (that hand must overtake) if the rest of the suit still ducks.  The cuts: those
       of ducks_cut() in each suit (an exit's suit: at every change of owner, and below the lowest card
       of the hand that must overtake); which of the others holds a card of theirs does not matter, and
       their discards only raise their cards */
    int ducks = 1, exit_suit = -1;
    u64 urel = 0;
    for (int suit = 0; suit < 4 && ducks; suit++) {
        u64 m = mine & SUIT(suit), t = theirs & SUIT(suit);
        if (!m || !t) continue;
        /* a suit where the seat is stuck fails the test at the others' lowest card: not walked (-0.8% of the
           kernel's instructions) */
        if (!STUCK(suit) && ducks_cut(m, t, &urel)) continue;
        if (s->leader != seat || exit_suit >= 0 || STUCK(suit)) {
            ducks = 0;
            continue;
        }
        if (exit_ducks(m, t, HIGH_LOW(suit), &urel)) exit_suit = suit;
        else ducks = 0;
    }
    if (ducks && s->leader == seat && exit_suit < 0) {
        /* every suit ducks: an exit from a suit that still ducks without the card led */
        for (int suit = 0; suit < 4 && exit_suit < 0; suit++) {
            u64 m = mine & SUIT(suit), t = theirs & SUIT(suit);
            if (m && t && !STUCK(suit) && exit_ducks(m, t, HIGH_LOW(suit), &urel)) exit_suit = suit;
        }
        ducks = exit_suit >= 0;
    }
    if (ducks) {
        *upper = 0, *rel_upper = urel;
        return;
    }
    if (s->leader == seat) {
        if (!(theirs & from_low)) { /* every card of the seat above every other card of its suit */
            *lower = left, *rel_lower = lows;
            return;
        }
        if (loose) { /* a safe exit: the lowest suit where the seat is not stuck */
            /* a hand all above the seat's lowest */
            *upper = left - 1, *rel_upper = 1ULL << HIGH_LOW(suit_of(__builtin_ctzll(loose)));
            return;
        }
        *lower = 1, *rel_lower = lows;
        return;
    }
    /* the others on lead: a suit where the seat is stuck forces this trick on it (lower bound 1).  The
       seat still ducks one of the next two tricks (upper bound: all but one) if, after any such lead, it
       keeps an exit in another suit: a hand holding only cards above the seat's lowest there that
       cannot throw them all on this trick (it holds two, or it leads, or it must follow the suit led) */
    int leader = s->leader;
    unsigned rest = ((1u << s->n) - 1) & ~(1u << seat) & ~(1u << leader);
    int other = rest ? top_bit32(rest) : -1; /* the highest hand neither the seat nor on lead */
    u64 lead = s->hands[leader], r = 0, lrel = 0;
    int forced_here = 0, ducks_next = 1;
    for (int suit = 0; suit < 4; suit++) {
        if (!(lead & SUIT(suit)) || !(mine & SUIT(suit))) continue;
        if (!STUCK(suit)) {
            r |= 1ULL << HIGH_LOW(suit);
            continue;
        }
        if (!forced_here) forced_here = 1, lrel = LOW(suit); /* every other hand has a card under it */
        int exit = 0;
        for (int t = 0; t < 4 && !exit && ducks_next; t++) {
            if (t == suit || !(mine & SUIT(t))) continue;
            for (int p = 0; p < s->n && !exit; p++) {
                u64 h = s->hands[p] & SUIT(t);
                if (p == seat || !h || (h & -h) < LOW(t)) continue;
                if (popc(h) >= 2 || p == leader || (p == other && (s->hands[p] & SUIT(suit))))
                    exit = 1, r |= h & -h; /* a cut below its lowest keeps it above the seat's lowest */
            }
        }
        if (!exit) {
            ducks_next = 0; /* and forced_here is set: nothing more to learn (with `other` without a loop,
                               -0.5% of the kernel's instructions) */
            break;
        }
    }
    if (forced_here) *lower = 1, *rel_lower = lrel;
    if (ducks_next) *upper = left - 1, *rel_upper = r;
#undef HIGH_LOW
#undef STUCK
#undef LOW
}

/* ---------------------------------------------------------------- move generation ------------ */



/* A lead in a suit where no partner holds a card above the opponents' (the top card is an opponent's or
   the leader's own): how its top cards lie (DDS weighs the same shapes).  +50 when a partner holds the
   second best and another card and plays after the holder of the top card: with the top card an
   opponent's, a finesse that cannot lose (the partner wins the trick or keeps the master); with it the
   leader's, a lead to the partner's winner.  +40 when the side holds the second and third best, so that
   its cards rank next once the top card is gone.  The +50 halved the median nodes of full no-trump bridge
   deals (169 k -> 74 k on the harness's 40). */
static inline int lead_shape(const State *s, int player, int suit, u64 hands_all, u64 partners) {
    u64 suit_all = hands_all & SUIT(suit);
    int top = top_bit(suit_all);
    u64 below_top = suit_all & ~(1ULL << top);
    if (!below_top) return 0;
    int second = top_bit(below_top), top_at = 0, second_at = 0;
    for (int k = 1; k < s->n; k++) {
        int p = wrap(s, player + k);
        if ((s->hands[p] >> top) & 1) top_at = k;
        if ((s->hands[p] >> second) & 1) second_at = k;
    }
    int bonus = 0;
    if (second_at > top_at) {
        int holder = wrap(s, player + second_at);
        if (((s->good[player] >> holder) & 1) && popc(s->hands[holder] & SUIT(suit)) > 1) bonus += 50;
    }
    u64 ours = partners | s->hands[player], below_second = below_top & ~(1ULL << second);
    if (((ours >> second) & 1) && below_second && ((ours >> top_bit(below_second)) & 1)) bonus += 40;
    return bonus;
}

/* How many cards the hands in `who` (a bit mask of players) can play to a lead of `suit`: their cards of
   the suit, a void hand counting as `void_as` (it may throw, or ruff with, any card).  Every such card is
   a branch of the search, so a lead's weight in gen_moves: the smaller tree first. */
static inline int branches(const State *s, int who, int suit, int void_as) {
    int count = 0;
    for (int p = 0; p < s->n; p++)
        if ((who >> p) & 1) {
            int length = popc(s->hands[p] & SUIT(suit));
            count += length ? length : void_as;
        }
    return count;
}

/* the top card of each run of equivalent cards of `legal` (a hand's cards): the cards of `legal` whose next card
   in play up its suit (`in_play`: equiv_cards()) is not in `legal` too.  Only those are generated. */
#if defined(__x86_64__) && defined(__GNUC__)
/* with BMI2: `legal` compressed onto the cards in play, where a run is a run of adjacent bits: a card is below
   another of its run when the next bit up is set.  Each suit's top rank counts as in play, so a run never
   crosses into the next suit (that rank is either an ace, never below a card of its suit, or a card no one
   holds, which stops the run).  (A test of each legal card in gen_moves' loop, which also walked the cards it
   skipped, took 2.4% more of the kernel's instructions.) */
__attribute__((target("bmi2,popcnt"))) static u64 run_tops_hw(u64 legal, u64 in_play) {
    u64 p = in_play | TOPS, l = _pext_u64(legal, p);
    return legal & (~_pdep_u64(l & (l >> 1), p) | TOPS);
}
#else
#define run_tops_hw(legal, in_play) 0
#endif
static inline u64 run_tops(u64 legal, u64 in_play) {
    if (HW_CUTS) return run_tops_hw(legal, in_play);
    u64 tops = 0;
    for (u64 rest = legal; rest;) {
        int card = __builtin_ctzll(rest);
        rest &= rest - 1;
        /* an equivalent higher card exists: the next legal card up (the cards come in ascending order) is of
           the same suit (no suit's top rank from this card up to it) with no card in play between them */
        u64 up = rest & -rest;
        if (!up || ((up - (2ULL << card)) & in_play) || ((up - (1ULL << card)) & TOPS)) tops |= 1ULL << card;
    }
    return tops;
}

/* Ordering heuristics, DDS-style by position in the trick.  `good[p]` says whose trick wins player p
   prefers: his own side's when every side wants tricks; in Mizerka the solving seat wants the others to
   win and the others want the seat to win, so high cards are a burden and ducks come first. */
/* insert `card` with `score` among moves[0 .. count - 1], ranked by descending score (the earlier of equal scores
   first); scores[i + 1] is the score of moves[i], scores[0] a sentinel above every score, so the insertion needs no
   test of the index (-0.4% of the kernel's instructions) */
static inline void insert_move(int *moves, int *scores, int count, int card, int score) {
    int i = count;
    while (scores[i] < score) {
        scores[i + 1] = scores[i];
        moves[i] = moves[i - 1];
        i--;
    }
    scores[i + 1] = score;
    moves[i] = card;
}

/* the leads (gen_moves()): `cards`, the legal cards to generate */
static int gen_leads(const State *s, int player, int *moves, int tt_move, u64 in_play, u64 cards) {
    u64 hands_all = in_hands(s);
    int scores[13 * 4 + 1];
    scores[0] = INT_MAX;
    int count = 0;
    int good = s->good[player];
    int misere = !s->wants;
    /* cards of players whose wins `player` likes / dislikes: the opponents hold the cards of the hands that neither
       `player` nor a partner holds (a loop over the partners alone, where one over every hand took 0.1% more of the
       kernel's instructions; the hands past n are empty) */
    u64 partners = 0;
    for (unsigned g = (unsigned)good & ~(1u << player) & 15; g; g &= g - 1) partners |= s->hands[__builtin_ctz(g)];
    u64 opponents = hands_all & ~partners & ~s->hands[player];
    int killer = s->killer[popc(in_play)];
    int lead_suit = -1, partner_wins = 0;
    int under_weight = 0; /* a lead under another hand's card of the suit: the suit's weight */
    int tree_weight = 0;  /* every lead: the size of the tree it opens */
    int their_low = -1;   /* the misere: the highest of the lowest cards of the others concerned */
    /* the misere: the lowest card of each suit of every hand `player` does not want to win (the seat: every other
       hand; the others: themselves), every suit at once (a loop over the hands at each suit took 0.3% more of the
       kernel's instructions; the hands past n are empty) */
    u64 their_lows = 0;
    if (misere)
        for (unsigned who = ((s->count_mask >> player) & 1 ? ~(1u << player) : ~(unsigned)good) & 15; who;
             who &= who - 1)
            their_lows |= suit_lows(s->hands[__builtin_ctz(who)]);
    while (cards) {
        int card = __builtin_ctzll(cards);
        cards &= cards - 1;
        int suit = suit_of(card);
        int rank = card - 13 * suit, score;
        u64 higher_out = hands_all & ~s->hands[player] & SUIT(suit) & ~((2ULL << card) - 1); /* the others' above */
        u64 part_suit = partners & SUIT(suit);
        if (suit != lead_suit) {
            /* what depends on the suit alone, once per suit (the cards come suit by suit) */
            lead_suit = suit;
            u64 opp_suit = opponents & SUIT(suit);
            under_weight = tree_weight = 0;
            if (!misere) {
                int part_top = part_suit ? top_bit(part_suit) : -1;
                int opp_top = opp_suit ? top_bit(opp_suit) : -1;
                partner_wins = part_top > opp_top;
                /* no one of ours holds the top card: with three hands lead high (it drives out
                   the top cards, and a lone seat must cover or give up the trick), with four the
                   rank does not matter (measured: a high lead -30% nodes on full Mizerka deals, a
                   low one -3% at 9 tricks left of a bridge deal) */
                if (!partner_wins)
                    under_weight = 40 - 2 * popc(opp_suit) + 2 * popc(part_suit) +
                                lead_shape(s, player, suit, hands_all, partners);
                if (s->trump >= 0 && suit != s->trump && opp_suit == 0 && (opponents & SUIT(s->trump)))
                    under_weight -= 20; /* an opponent ruffs */
                else if (s->trump >= 0 && suit != s->trump && part_suit == 0 && (partners & SUIT(s->trump)))
                    under_weight += 25; /* a partner ruffs */
                /* the smaller tree first (DDS's suit weight): every card an opponent can play to
                   the trick is a branch, and a void opponent may throw (or ruff with) any card,
                   so count him as six; a lead where the partner is void too is worth less.
                   Weighed against the categories below at 8 a card: -48% nodes in all on 150
                   full no-trump bridge deals, -57% on 60 in spades, -36% and -31% on full
                   Mizerka deals in no-trump and in trumps (with the two bonuses of lead_shape) */
                tree_weight = -8 * branches(s, ~good & ~(1 << player), suit, 6);
                if (!part_suit) tree_weight -= 12;
            } else {
                /* the highest of the lowest cards of the suit held by the players `player` does
                   not want to win (the seat: every other hand; the others: themselves) */
                u64 lows = their_lows & SUIT(suit);
                their_low = lows ? top_bit(lows) : -1;
                int seat = (s->count_mask >> player) & 1;
                /* the seat's lead: the smaller tree first, as outside the misere (each card the others
                   can play is a branch, a void hand counting as ten: it throws any card), 16 a card.
                   Measured by trying every lead of the seat's cut nodes (7 to 10 tricks left) in a
                   random order: the lead that refuted with the fewest nodes lay in the suits the others
                   hold fewest cards of; -10% nodes in all and -17% at the median on the harness's 40
                   full Mizerka-contract deals, -8% and -10 to -27% on 120 others */
                if (seat) tree_weight = -16 * branches(s, ~(1 << player), suit, 10);
            }
        }
        if (!misere) {
            if (!higher_out) {
                /* a winner: not first.  Cashing top cards at once (ranked above every other lead,
                   as before) was the first lead that failed in most cut nodes where another lead
                   worked: it sets up the opponents' cards and spends the side's entries.  Ranked
                   with the other leads: -10% nodes on full NT bridge deals, -13% on spades and on
                   full Mizerka deals in trumps and no-trump */
                score = 35 + rank;
            } else if (partner_wins) {
                score = 80 - rank + under_weight; /* a partner wins it */
            } else {
                score = under_weight + (s->n == 3 ? rank : 0);
            }
            score += tree_weight;
        } else if ((s->count_mask >> player) & 1) {
            /* misere, the seat: first its lowest card of a suit where it is stuck (its lowest card
               beats every other hand's lowest), which an other hand could still overtake: where
               the safe exit failed as the first lead, this was the lead that worked in half the
               cut nodes (-7% nodes on full deals); then a safe exit (a hand that must overtake:
               all its cards of the suit are higher), the highest such card to be rid of it; else
               low */
            int safe = their_low > card;
            int stuck = their_low < __builtin_ctzll(s->hands[player] & SUIT(suit));
            score = (safe ? 100 + rank : higher_out ? (stuck ? 130 - rank : 50 - rank) : 10 - rank) + tree_weight;
        } else {
            /* misere, the others: best a suit where the seat must win (its lowest card beats every
               other hand's lowest), then low cards under the seat's cards */
            int seat_low = part_suit ? __builtin_ctzll(part_suit) : -1, others_low = their_low;
            if (seat_low < 0) score = 10 - rank;
            else if (seat_low > others_low) score = 100 - rank;
            /* else shed a high card where the seat can still duck: the trick is ours anyway, and
               the low cards kept are what will force the seat later (-35% nodes against leading
               low; from a 5 up these come before the forcing leads).  Better still where the seat
               holds a card above it: ducking spends one of its low cards and leaves the high one
               stranded, where a lead above all its cards lets it throw its highest (that lead
               failed first in most cut nodes where another shed worked; ranked ahead by about
               seven ranks: -7.5% nodes on 80 full deals in the Mizerka contract) */
            else score = 50 + 10 * rank + 2 * popc(part_suit) + (part_suit & ~((2ULL << card) - 1) ? 70 : 0);
        }
        /* the killer move (the last cut-off at this depth) only breaks ties: ranked above the card
           that cut off there last time, as DDS weighs it, it cost 3-4x the nodes of full deals (a card
           that refuted one line is a poor guess in a sibling line once the cards before it differ).
           Except for the lead in a no-trump bridge deal, where the killer is a good guess (DDS weighs it
           heavily there): ranked ahead by 80, -13% nodes in all and -25% at the median on 150 full
           deals; it cost nodes in trumps (+10% at the median in spades) and with three hands (+6% in
           trumps).  The table's move first */
        if (card == killer && s->trump < 0 && s->n == 4) score += 80;
        score = 2 * score + (card == killer);
        if (card == tt_move) score += 4000;
        insert_move(moves, scores, count++, card, score);
    }
    return count;
}

/* the cards played to a trick in progress (gen_moves()): `cards`, the legal cards to generate (no table move: the
   table holds trick starts only) */
static int gen_follows(const State *s, int player, int *moves, u64 in_play, u64 cards) {
    int scores[13 * 4 + 1];
    scores[0] = INT_MAX;
    int count = 0;
    int good = s->good[player];
    int misere = !s->wants;
    int win_card, winner_good, later_bad = 0, later_good = 0;
    u64 later_cards = 0, later_opp = 0, later_part = 0;
    {
        int w = s->win_off[s->tlen - 1];
        win_card = s->trick[w];
        winner_good = (good >> (wrap(s, s->leader + w))) & 1;
        for (int i = s->tlen + 1; i < s->n; i++) {
            int p = wrap(s, s->leader + i);
            later_cards |= s->hands[p];
            if ((good >> p) & 1) later_good = 1, later_part |= s->hands[p];
            else later_bad = 1, later_opp |= s->hands[p];
        }
    }
    /* a partner winning: no later opponent can beat his card (once a call, outside the misere: gcc computed it
       before the loop at every call, the misere's too, 0.4% more of the kernel's instructions) */
    int partner_safe = !misere && winner_good &&
                       (!later_bad || !(later_cards & SUIT(suit_of(win_card)) & ~((2ULL << win_card) - 1)));
    int killer = s->killer[popc(in_play) - s->tlen];
    while (cards) {
        int card = __builtin_ctzll(cards);
        cards &= cards - 1;
        int suit = suit_of(card);
        int rank = card - 13 * suit, score;
        int b = beats(card, win_card, s->trump);
        if (!misere) {
            if (winner_good) {
                /* partner is winning: play low unless an opponent after us can beat it */
                if (partner_safe) score = b ? 5 - rank : 60 - rank;
                else score = b ? 38 + rank : 40 - rank; /* overtake high, to beat them too */
            } else if (b) {
                /* can we keep it?  sure if no later opponent holds a higher card of this suit */
                u64 threat = later_bad ? (later_cards & SUIT(suit) & ~((2ULL << card) - 1)) : 0;
                score = threat ? 55 - rank : 100 - rank;
            } else {
                /* a later partner above the trick and every later opponent's card wins it: play low */
                u64 led = SUIT(suit_of(s->trick[0])), pl = later_part & led, ol = later_opp & led;
                int partner_wins = pl && top_bit(pl) > win_card && (!ol || top_bit(pl) > top_bit(ol)) &&
                                   suit_of(win_card) == suit_of(s->trick[0]);
                score = partner_wins ? 70 - rank : 40 - rank;
            }
        } else {
            /* duck with the highest card that loses; forced to win, win with the highest (no one after
               wants to take it from the seat: shed the card most likely to win later) */
            if (winner_good) score = b ? 20 + rank : 100 + rank;
            else if (later_good) score = b ? 10 - rank : 90 + rank; /* leave it to the one after, shed high */
            else score = 50 + rank; /* nothing to change: shed a high card */
        }
        /* a discard comes from a long suit (DDS) */
        if (!misere && suit != suit_of(s->trick[0]) && !beats(card, win_card, s->trump))
            score += 2 * popc(s->hands[player] & SUIT(suit));
        /* the killer move only breaks ties (see gen_leads()) */
        score = 2 * score + (card == killer);
        insert_move(moves, scores, count++, card, score);
    }
    return count;
}

/* the moves of `player`, best first, in moves[]; returns their number.  The leads and the cards played to a trick
   each have a loop of their own (one loop for both, with the tests of the trick's state at each card and the
   partners found for the follows too, took 3% more of the kernel's instructions); inlined in search_moves() (a
   function of its own: its call took 3.9% more) */
static inline __attribute__((always_inline)) int gen_moves(const State *s, int player, int *moves, int tt_move,
                                                           u64 in_play) {
    u64 cards = run_tops(legal_of(s, player), in_play);
    if (cards && !(cards & (cards - 1))) { /* one card to play: nothing to rank (-2.6% of the kernel's instructions) */
        moves[0] = __builtin_ctzll(cards);
        return 1;
    }
    return s->tlen ? gen_follows(s, player, moves, in_play, cards)
                   : gen_leads(s, player, moves, tt_move, in_play, cards);
}

/* ---------------------------------------------------------------- the search ----------------- */

static int reach(State *s, int won, int target, u64 in_play, u64 *rel);
#ifndef STATS
#define ST(i) ((void)0)
#endif
#ifdef STATS
#define ST(i) (stat_b[i]++, stat_d[left][i]++)
#include <stdio.h>
static u64 stat_cut[4][4], stat_all[4], stat_b[6], stat_d[14][6], stat_scan[4], stat_lead[2][4];
static void __attribute__((destructor)) stats_print(void) {
    for (int t = 0; t < 4; t++)
        fprintf(stderr, "pos %d: cut@1 %llu cut@2 %llu cut@3 %llu cut@4+ %llu all %llu\n", t,
                (unsigned long long)stat_cut[0][t], (unsigned long long)stat_cut[1][t],
                (unsigned long long)stat_cut[2][t], (unsigned long long)stat_cut[3][t],
                (unsigned long long)stat_all[t]);
    fprintf(stderr, "boundary: target %llu last %llu tt %llu quick %llu searched-yes %llu searched-no %llu\n",
            (unsigned long long)stat_b[0], (unsigned long long)stat_b[1], (unsigned long long)stat_b[2],
            (unsigned long long)stat_b[3], (unsigned long long)stat_b[4], (unsigned long long)stat_b[5]);
    fprintf(stderr, "entries scanned %llu in %llu lookups, used sum %llu\n", (unsigned long long)stat_scan[0], (unsigned long long)stat_scan[1], (unsigned long long)stat_scan[2]);
    for (int m = 0; m < 2; m++)
        fprintf(stderr, "lead cut by %s: @1 %llu @2 %llu @3 %llu @4+ %llu\n", m ? "max" : "min",
                (unsigned long long)stat_lead[m][0], (unsigned long long)stat_lead[m][1],
                (unsigned long long)stat_lead[m][2], (unsigned long long)stat_lead[m][3]);
    for (int l = 13; l > 0; l--)
        fprintf(stderr, "left %2d: target %8llu tt %8llu quick %8llu yes %8llu no %8llu\n", l, (unsigned long long)stat_d[l][0],
                (unsigned long long)stat_d[l][2], (unsigned long long)stat_d[l][3], (unsigned long long)stat_d[l][4], (unsigned long long)stat_d[l][5]);
}
#endif

/* the lowest card of `player`'s that is equivalent to `card` (no other card in play between them; `in_play`:
   equiv_cards()) */
static inline int run_bottom(const State *s, int player, int card, u64 in_play) {
    u64 below = in_play & SUIT(suit_of(card)) & ((1ULL << card) - 1);
    while (below) {
        int next = top_bit(below);
        if (!((s->hands[player] >> next) & 1)) break;
        card = next;
        below &= ~(1ULL << next);
    }
    return card;
}

/* try the moves of the player to move; *rel gets the winning ranks the result relies on.  Inlined at both its calls
   in reach() (gcc kept it a function of its own: the call and its prologue cost 0.8% of the kernel's instructions) */
static inline __attribute__((always_inline)) int search_moves(State *s, int won, int target, u64 in_play, u64 *rel,
                                                              int tt_move, int *best) {
    int player = wrap(s, s->leader + s->tlen);
    int maximising = (s->max_mask >> player) & 1;
    int moves[52];
    /* `in_play`: the cards in play (equiv_cards()), from the caller: gen_moves(), the runs of equivalent cards and
       rank_winner() below need them (each computing its own took 0.9% more of the kernel's instructions) */
    int count = gen_moves(s, player, moves, tt_move, in_play);
    int depth = (popc(in_hands(s)) + 1) & 63;
    int saved_trick[4], saved_win[4];
    memcpy(saved_trick, s->trick, sizeof saved_trick);
    memcpy(saved_win, s->win_off, sizeof saved_win);
    u64 all = 0;
    u64 skip = 0; /* the player's cards shown to lead where a card that failed led (see below) */
    for (int i = 0; i < count; i++) {
        int card = moves[i], saved;
        if (((skip >> card) & 1) && ((skip >> run_bottom(s, player, card, in_play)) & 1)) continue;
        int gained = push(s, player, card, &saved);
        u64 child = gained >= 0 ? rank_winner(s, in_play) : 0, below = 0;
        int result = reach(s, won + (gained > 0 ? gained : 0), target, in_play, &below);
        child |= below;
        pop(s, player, card, saved, gained, saved_trick);
        /* the card stood for its whole run of equivalent cards: if its rank mattered, so do the others'
           (a lower member in the other positions of the partition may be a "small" card) */
        u64 suit_rel = child & SUIT(suit_of(card));
        if (suit_rel && __builtin_ctzll(suit_rel) <= card) {
            /* the run of equivalent cards stays a run in every position of the class: cut below its
               bottom and below the card in play just above its top (needed only when a cut falls
               inside the run: otherwise the run lies in one block of the card) */
            int bottom = run_bottom(s, player, card, in_play);
            if (bottom != card && (suit_rel & ((2ULL << card) - (2ULL << bottom)))) {
                child |= 1ULL << bottom;
                u64 above = in_play & SUIT(suit_of(card)) & ~((2ULL << card) - 1);
                if (above) child |= above & -above;
            }
        }
        if (gained >= 0) memcpy(s->win_off, saved_win, sizeof saved_win);
        if (result == maximising) {
#ifdef STATS
            stat_cut[i < 3 ? i : 3][s->tlen]++;
            if (s->tlen == 0) stat_lead[maximising][i < 3 ? i : 3]++;
#endif
            s->killer[depth - 1] = card;
            *best = card;
            *rel = child;
            return result;
        }
        all |= child;
        /* Kuijf/DDS small cards, for blocks: the player's other cards of the suit in the same block of
           this card's cut set (no cut between them) give positions of the same class, so they fail
           too (a card is skipped with its whole run, which must lie in the block) */
        {
            int suit = suit_of(card);
            u64 cs = child & SUIT(suit), le = cs & ((2ULL << card) - 1), gt = cs & ~((2ULL << card) - 1);
            int lo = le ? top_bit(le) : 13 * suit, hi = gt ? __builtin_ctzll(gt) - 1 : 13 * suit + 12;
            skip |= ((2ULL << hi) - (1ULL << lo)) & s->hands[player];
        }
    }
#ifdef STATS
    stat_all[s->tlen]++;
#endif
    *best = -1;
    *rel = all;
    return !maximising;
}

#ifdef DEBUGTT
#include <stdio.h>
static int minimax(State *s) { /* counted tricks from a trick boundary or mid-trick, plain */
    int player = wrap(s, s->leader + s->tlen);
    if (!s->hands[player]) return 0;
    int maximising = (s->max_mask >> player) & 1;
    u64 legal = legal_of(s, player);
    int best = maximising ? -1 : 99;
    int saved_trick[4], saved_win[4];
    memcpy(saved_trick, s->trick, sizeof saved_trick);
    memcpy(saved_win, s->win_off, sizeof saved_win);
    while (legal) {
        int card = __builtin_ctzll(legal); legal &= legal - 1;
        int saved; int gained = push(s, player, card, &saved);
        int v = (gained > 0 ? 1 : 0) + minimax(s);
        pop(s, player, card, saved, gained, saved_trick);
        if (gained >= 0) memcpy(s->win_off, saved_win, sizeof saved_win);
        if (maximising ? v > best : v < best) best = v;
    }
    return best;
}
static void show(const u64 *h, int n, int leader) {
    for (int p = 0; p < n; p++) { fprintf(stderr, " /"); for (int c = 51; c >= 0; c--) if ((h[p] >> c) & 1) fprintf(stderr, " %c%c", "23456789TJQKA"[c % 13], "CDHS"[c / 13]); }
    fprintf(stderr, " lead %d\n", leader);
}
#endif
/* the bounds of step 6 at a trick start: 1 or 0 when they decide the search (with the winning ranks they
   rely on in *rel), else -1 */
static inline int bound_cut(State *s, int won, int target, int left, u64 in_play, u64 *rel) {
    int lower, upper;
    u64 rel_lower, rel_upper;
    if (s->wants) {
        /* the leader's side's sure tricks cut off from `need` on */
        int need = (s->count_mask >> s->leader) & 1 ? target - won : left - (target - won) + 1;
        sure_trick_bounds(s, left, need, &lower, &rel_lower, &upper, &rel_upper);
    } else { /* quick tricks assume each side wants its tricks */
        lower = 0, upper = left, rel_lower = rel_upper = 0;
        misere_bounds(s, left, &lower, &rel_lower, &upper, &rel_upper);
    }
    if (won + lower >= target) {
        *rel = rel_lower;
        return 1;
    }
    if (won + upper < target) {
        *rel = rel_upper;
        return 0;
    }
    int max_leads = (s->max_mask >> s->leader) & 1;
    if (s->wants && (max_leads ? target - won == left : target - won == 1) &&
        (s->trump < 0 || !(in_play & SUIT(s->trump))) && later_tricks(s, left, in_play, rel))
        return !max_leads;
    return -1;
}

/* The trick in progress (after DDS's QuickTricksSecondHand, generalised to every hand after the lead and to
   both sides).  When no hand still to play can ruff, the trick goes to the side holding the highest card of
   the suit led among the card winning now and the cards still to come: its holder plays it.  When hands of
   only one side can ruff (void in the suit led, holding trumps), that side wins it.  If this trick decides
   the search (the side that wins it needs one more trick, or the other side needs every trick left), the
   search cuts off before any card of the trick is tried; in no-trump, or while no other hand holds a trump,
   the winner's cashing tricks on the lead that follows count too (the second top card of the suit led, then
   `own_tricks`; the cards the others still play to this trick only weaken their holdings).  Only where each side wants its tricks.  The cut: just
   below the winning card, as `rank_winner` would cut the finished trick (none for a ruff), and below the
   lowest top card of each suit cashed. */
static inline int trick_win_cut(const State *s, int won, int target, u64 *rel) {
    if (!s->wants) return -1;
    int suit = suit_of(s->trick[0]), at = s->win_off[s->tlen - 1], best = s->trick[at];
    if (suit_of(best) != suit) return -1; /* already ruffed */
    u64 led = SUIT(suit);
    int ruffs = s->trump >= 0 && s->trump != suit;
    int holder = wrap(s, s->leader + at), ruffers = 0; /* ruffers: bit 1 the counted side, bit 0 the other */
    for (int i = s->tlen; i < s->n; i++) {
        int p = wrap(s, s->leader + i);
        u64 h = s->hands[p] & led;
        if (h) {
            if (top_bit(h) > best) best = top_bit(h), holder = p;
        } else if (ruffs && (s->hands[p] & SUIT(s->trump))) {
            ruffers |= 1 << ((s->count_mask >> p) & 1);
        }
    }
    if (ruffers == 3) return -1;
    int counted = ruffers ? ruffers >> 1 : (s->count_mask >> holder) & 1; /* does the counted side win it? */
    int left = popc(s->hands[wrap(s, s->leader + s->tlen)]);
    int need = counted ? target - won : won + left - target + 1; /* tricks that side needs to decide */
    if (need <= 1) {
        *rel = ruffers ? 0 : 1ULL << best;
        return counted;
    }
    if (need > left || ruffers) return -1;
    u64 r = 1ULL << best, others = 0, other_trumps = 0;
    for (int p = 0; p < s->n; p++)
        if (p != holder) others |= s->hands[p] & led, other_trumps |= s->hands[p];
    /* with trumps: only while no other hand holds one (nothing of the winner's can be ruffed) */
    if (s->trump >= 0 && (other_trumps & SUIT(s->trump))) return -1;
    u64 rest = s->hands[holder] & led & ~(1ULL << best), top = above_all(rest, others);
    int more = top ? (popc(top) >= longest_other(s, holder, suit) ? popc(rest) : popc(top)) : 0;
    if (top) r |= top & -top;
    if (1 + more < need && 1 + more + own_tricks(s, holder, suit, &r) < need) return -1;
    *rel = r;
    return counted;
}

/* The trick in progress in the misere (no trumps, the seat alone counted): when the seat needs one more
   trick, the search cuts off where the others can make it win this trick (it has played the best card and
   every hand still to play can go under it, or every card it could play beats the best card and what each
   hand before and after it can play under it); when it needs every trick left, where it can lose this one
   (it is void in the suit led, or it holds a card under the best card, or someone has beaten its card).
   The cut: just below the seat's card or lowest card (the others' low cards stay under it), or just
   below the best card. */
static inline int misere_trick_cut(const State *s, int won, int target, u64 *rel) {
    int seat = s->lone_seat;
    if (s->wants || seat < 0) return -1;
    int need = target - won, left = popc(s->hands[wrap(s, s->leader + s->tlen)]);
    if (need != 1 && need != left) return -1;
    int suit = suit_of(s->trick[0]), at = s->win_off[s->tlen - 1], best = s->trick[at];
    u64 led = SUIT(suit);
    int seat_at = wrap(s, seat - s->leader + s->n);
    if (seat_at < s->tlen) { /* the seat has played */
        int card = s->trick[seat_at];
        if (at != seat_at) {
            if (need != left) return -1;
            *rel = suit_of(card) == suit ? 1ULL << best : 0;
            return 0;
        }
        if (need != 1) return -1;
        for (int i = s->tlen; i < s->n; i++) {
            u64 h = s->hands[wrap(s, s->leader + i)] & led;
            if (h && __builtin_ctzll(h) > card) return -1;
        }
        *rel = 1ULL << card;
        return 1;
    }
    u64 mine = s->hands[seat] & led;
    if (need == left) {
        if (!mine) return *rel = 0, 0;
        if (__builtin_ctzll(mine) < best) return *rel = 1ULL << best, 0;
        if (need != 1) return -1;
    }
    if (!mine) return -1;
    int low = __builtin_ctzll(mine);
    if (low < best) return -1;
    for (int i = s->tlen; i < s->n; i++) {
        int p = wrap(s, s->leader + i);
        u64 h = s->hands[p] & led;
        if (p != seat && h && __builtin_ctzll(h) > low) return -1;
    }
    *rel = 1ULL << low;
    return 1;
}

/* -DDEBUGBOUND (with -DDEBUGTT for minimax()): every bound's cut-off checked against plain minimax */
#ifdef DEBUGBOUND
#define CHECK_BOUND(what, cut)                                                                  \
    do {                                                                                        \
        if ((cut) >= 0 && (won + minimax(s) >= target) != (cut)) {                              \
            fprintf(stderr, "BAD %s cut %d won %d target %d:", what, (cut), won, target);       \
            show(s->hands, s->n, s->leader);                                                    \
        }                                                                                       \
    } while (0)
#else
#define CHECK_BOUND(what, cut) ((void)0)
#endif

/* `in_play`: the cards in play (equiv_cards()) in the trick in progress; unused at a trick start (the hands').
   A card played keeps the cards in play of its trick, so each node's are its parent's, passed down, where a loop
   over the trick at every node took 0.8% more of the kernel's instructions */
static int reach(State *s, int won, int target, u64 in_play, u64 *rel) {
#ifdef TRICKNODES /* a debug build that counts trick starts only: the unit of DDS's own node figure */
    if (!s->tlen) s->nodes++;
#else
    s->nodes++;
#endif
    if (stop_search()) return 0; /* Ctrl-C (see _glue.h) */
    if (s->tlen) {
        int cut = s->wants ? trick_win_cut(s, won, target, rel) : misere_trick_cut(s, won, target, rel);
        CHECK_BOUND("TRICK", cut);
        if (cut >= 0) return cut;
        int best;
        return search_moves(s, won, target, in_play, rel, -1, &best);
    }
    *rel = 0;
    int left = popc(s->hands[s->leader]);
    if (won >= target) return ST(0), 1;
    if (won + left < target) return ST(0), 0;
    if (left == 1) { /* the last trick plays itself */
        ST(1);
        int best = 0, best_card = __builtin_ctzll(s->hands[s->leader]), by_rank = 0;
        for (int i = 1; i < s->n; i++) {
            int p = wrap(s, s->leader + i);
            int c = __builtin_ctzll(s->hands[p]);
            if (suit_of(c) == suit_of(best_card)) by_rank = 1;
            if (beats(c, best_card, s->trump)) best = i, best_card = c;
        }
        for (int i = 0; i < s->n && !by_rank; i++) {
            int c = __builtin_ctzll(s->hands[i]);
            if (c != best_card && suit_of(c) == suit_of(best_card)) by_rank = 1;
        }
        if (by_rank) *rel = 1ULL << best_card;
        int winner = wrap(s, s->leader + best);
        return won + ((s->count_mask >> winner) & 1) >= target;
    }
    u64 k[3], lens = s->lens;
    in_play = in_hands(s);
    uint16_t tag;
    Bucket *bk = bucket_of(lens, s->leader, &tag);
    /* the sure-trick bounds are computed while the bucket's head is on its way from memory, and a
       node they cut off never waits for it */
    __builtin_prefetch(bk);
    __builtin_prefetch((char *)bk + 64);
    {
        int cut = bound_cut(s, won, target, left, in_play, rel);
        CHECK_BOUND("BOUND", cut);
        if (cut >= 0) return ST(3), cut;
    }
    u64 ranks = HW_CUTS ? rel_ranks(s->lens) : 0; /* for the key and the cut conversions (with BMI2) */
    MAKE_KEY(s, k, &lens, ranks); /* after the bounds: a node they cut off needs no key (-0.7% instructions) */
    int used = bucket_used(bk);
    unsigned owners = top_owners(k, s->n);
    uint16_t pos_tag = (uint16_t)(tag | 0x55 | owners << 8);
#ifdef STATS
    stat_scan[1]++, stat_scan[2] += used;
#endif
    for (int line = 2; line < (used + 31) / 32 + 1; line++) __builtin_prefetch((char *)bk + 64 * line);
    int tt_move = -1;
    FOR_TAGGED_REV(bk, used, pos_tag, i) {
        Entry *e = &bk->entries[i];
#ifdef STATS
        stat_scan[0]++;
#endif
        if (e->lens != lens || (e->ll & 3) != s->leader) continue;
        u64 m = e->mask;
        /* single-card blocks first (they are kept as they are; a prefix mask has no other), then in each
           larger block the number of cards of each hand (the entry's key is the class key of canon_key(),
           whose blocks hold just those counts): no class key is built (building it took 5% more of the instructions) */
        u64 single = m & ((m >> 1) | TOPS);
        if (((k[0] ^ e->k0) & single) || ((k[1] ^ e->k1) & single) || ((k[2] ^ e->k2) & single)) continue;
        if (m != single && !blocks_match(k, e, m, single, s->n)) continue;
        int cut = won + e->lower >= target ? 1 : won + e->upper < target ? 0 : -1;
        if (cut >= 0) {
            ST(2);
            *rel = mask_to_cuts(m, in_play, ranks);
#ifdef DEBUGTT
            int truth = won + minimax(s) >= target;
            if (truth != cut) {
                fprintf(stderr, "BAD TT cut %d (lower %d upper %d won %d target %d) mask %llx\n now:", cut, e->lower, e->upper, won, target, (unsigned long long)m);
                show(s->hands, s->n, s->leader);
                fprintf(stderr, " stored from (res %d target %d won %d):", e->dres, e->dtarget, e->dwon);
                show(e->dh, s->n, s->leader);
            }
#endif
            return cut;
        }
        if (tt_move < 0 && e->best != 0xFF && ((s->hands[s->leader] >> e->best) & 1)) tt_move = e->best;
    }
    int best;
    u64 found;
    int result = search_moves(s, won, target, in_play, &found, tt_move, &best);
    ST(4 + !result);
    *rel = found;
#ifdef FULLMASK
    u64 m = 0xFFFFFFFFFFFFFULL;
#elif defined(PREFIXMODE)
    u64 m = mask_prefix(cuts_to_mask(found, in_play, ranks)); /* the old partition: the same nodes as before */
#else
    u64 m = cuts_to_mask(found, in_play, ranks);
#endif
    /* a suit with a cut is also cut below its top card: the entry then carries the top cards' owners
       in its tag more often (a lookup reads fewer entries; and fewer nodes on every set but the
       misere's).  Not in the misere, where the top card's owner rarely matters (-11% nodes there) */
    for (int suit = 0; suit < 4 && s->wants; suit++)
        if (m & SUIT(suit)) m |= 1ULL << (13 * suit + 12);
    u64 ck[3];
    canon_key(k, m, s->n, ck);
    u64 k0 = ck[0], k1 = ck[1], k2 = ck[2];
    int lower = result ? target - won : 0, upper = result ? left : target - won - 1;
    Entry *hit = NULL;
    unsigned care = top_care(m);
    uint16_t entry_tag = (uint16_t)(tag | care | (owners & care * 3) << 8);
    used = (int)bk->count; /* the search below may have added entries */
    FOR_TAGGED(bk, used, entry_tag, entry_tag, i) {
        if (hit) continue;
        Entry *e = &bk->entries[i];
        if (!hit && e->lens == lens && (e->ll & 3) == s->leader && e->mask == m && e->k0 == k0 && e->k1 == k1 &&
            e->k2 == k2)
            hit = e;
    }
    int victim = used;
    if (!hit && used == BUCKET) { /* bucket full: the shallower of two slots picked at random */
        u64 r = s->nodes * 0x9E3779B97F4A7C15ULL;
        int x = (int)((r >> 52) % BUCKET), y = (int)((r >> 40) % BUCKET);
        victim = (bk->entries[y].ll >> 2) < (bk->entries[x].ll >> 2) ? y : x;
    } else if (!hit) {
        bk->count = used + 1;
    }
    if (hit) {
        if (hit->lower > lower) lower = hit->lower;
        if (hit->upper < upper) upper = hit->upper;
    } else {
        hit = &bk->entries[victim];
        bk->tags[victim] = entry_tag;
        hit->lens = lens, hit->mask = m, hit->k0 = k0, hit->k1 = k1, hit->k2 = k2;
        hit->ll = (uint8_t)(s->leader | left << 2);
        hit->best = 0xFF;
    }
    hit->lower = (int8_t)lower;
    hit->upper = (int8_t)upper;
    if (best >= 0) hit->best = (uint8_t)best;
#ifdef DEBUGTT
    memcpy(hit->dh, s->hands, sizeof hit->dh); hit->dres = result; hit->dtarget = target; hit->dwon = won;
#endif
    return result;
}

static int tricks_left(const State *s) { return popc(s->hands[wrap(s, s->leader + s->tlen)]); }

/* the value of the position, between lower and upper.  MTD(f)-like: test a first guess, then step by
   one towards the value; the transposition table carries what each search learnt into the next.  The
   guess is `guess` if >= 0, else the counted side's share of the high-card points (in the misere: the
   lower bound, see below). */
static int solve_value(State *s, int lower, int upper, int guess) {
    if (guess < 0) {
        int mine = 0, all = 0;
        for (int p = 0; p < s->n; p++)
            for (int suit = 0; suit < 4; suit++) {
                u64 h = (s->hands[p] >> (13 * suit)) & SUIT_BITS;
                int pts = 4 * ((h >> 12) & 1) + 3 * ((h >> 11) & 1) + 2 * ((h >> 10) & 1) + ((h >> 9) & 1);
                if (suit == s->trump) pts += popc(h);
                all += pts;
                if ((s->count_mask >> p) & 1) mine += pts;
            }
        guess = all ? (2 * upper * mine + all) / (2 * all) : (lower + upper + 1) / 2;
        /* the misere: from the bottom up.  Searches under the value (can the others force k tricks on
           the seat?) are cheap and fill the table for the two that decide it; starting from an estimate
           from the seat's rank sum (three under it) cost 7% more nodes in all and 1.7x on the worst deal */
        if (!s->wants) guess = lower;
    }
    while (lower < upper) {
        int target = guess;
        if (target <= lower) target = lower + 1;
        if (target > upper) target = upper;
        u64 rel;
#ifdef STATS
        u64 before = s->nodes;
#endif
        if (reach(s, 0, target, equiv_cards(s), &rel)) lower = target, guess = target + 1;
        else upper = target - 1, guess = target - 1;
#ifdef STATS
        if (getenv("STATS_DRIVER")) fprintf(stderr, "  target %d -> %s nodes %llu\n", target, lower == target ? "yes" : "no", (unsigned long long)(s->nodes - before));
#endif
    }
#ifdef STATS
    if (getenv("STATS_DRIVER")) fprintf(stderr, "value %d\n", lower);
#endif
    return lower;
}

/* ---------------------------------------------------------------- Python glue ---------------- */

static int parse_state(PyObject *args, State *s) {
    PyObject *hands, *trick;
    int leader, trump, count_mask, max_mask, must_trump;
    if (!PyArg_ParseTuple(args, "OiOiiip", &hands, &leader, &trick, &trump, &count_mask, &max_mask,
                          &must_trump))
        return -1;
    memset(s, 0, sizeof(State));
    for (int i = 0; i < 64; i++) s->killer[i] = -1;
    int tlen;
    if (read_hands(hands, s->hands, &s->n) < 0 || read_trick(trick, s->n, leader, s->trick, &tlen) < 0) return -1;
    if (trump < -1 || trump > 3) { /* Position checks these; a direct call must not read past the suits */
        PyErr_SetString(PyExc_ValueError, "bad trump: a suit 0-3, or -1 for none");
        return -1;
    }
    for (int i = 0; i < tlen; i++) {
        u64 held = 0;
        for (int p = 0; p < s->n; p++) held |= s->hands[p];
        for (int j = 0; j < i; j++) held |= 1ULL << s->trick[j];
        if ((held >> s->trick[i]) & 1) {
            PyErr_SetString(PyExc_ValueError, "a card of the trick is also in a hand, or twice in the trick");
            return -1;
        }
    }
    init_derived(s);
    s->leader = leader;
    s->trump = trump;
    s->count_mask = count_mask;
    s->max_mask = max_mask;
    s->must_trump = must_trump;
    s->wants = count_mask == max_mask;
    for (int i = 0; i < 8; i++) s->wrap_of[i] = (unsigned char)(i % s->n);
    s->lone_seat = trump < 0 && popc((unsigned)count_mask) == 1 ? __builtin_ctz((unsigned)count_mask) : -1;
    for (int p = 0; p < s->n; p++) {
        s->good[p] = ((max_mask >> p) & 1) ? count_mask : (~count_mask & ((1 << s->n) - 1));
        s->side_size[(count_mask >> p) & 1]++;
    }
    for (int i = 0; i < tlen; i++) {
        if (i == 0) s->win_off[0] = 0;
        else {
            int w = s->win_off[i - 1];
            s->win_off[i] = beats(s->trick[i], s->trick[w], trump) ? i : w;
        }
    }
    s->tlen = tlen;
    return 0;
}

/* a new search's table: made on first use, and a new generation (which empties every bucket as the search
   meets it).  With the search lock held; -1 if the table cannot be made */
static int begin_search(void) {
    watch_signals();
    if (!table && table_alloc(64u << 20) < 0) return -1;
    if (++generation == 0) {
        /* wrapped after 2^32 solves (a long-running server's bots): a bucket stamped 2^32 solves ago
           would pass for this solve's, with bounds from another contract or seat; forget every bucket */
        for (size_t i = 0; i < n_buckets; i++) ((Bucket *)(table + i * BUCKET_BYTES))->gen = 0;
        generation = 1;
    }
    return 0;
}

static PyObject *py_solve(PyObject *self, PyObject *args) {
    State s;
    if (parse_state(args, &s) < 0) return NULL;
    int value = -1;
    int stopped;
    SEARCH_BEGIN
    if (begin_search() == 0) value = solve_value(&s, 0, tricks_left(&s), -1);
    stopped = interrupted, interrupted = 0; /* under the search lock: the next search must not see it */
    SEARCH_END
    total_nodes += s.nodes;
    if (stopped) return NULL; /* the signal handler's exception (KeyboardInterrupt) is set */
    if (value < 0) return PyErr_NoMemory();
    return PyLong_FromLong(value);
}

static PyObject *py_solve_all(PyObject *self, PyObject *args) {
    State s;
    if (parse_state(args, &s) < 0) return NULL;
    int player = wrap(&s, s.leader + s.tlen);
    u64 legal = legal_of(&s, player);
    int values[52], last = -1, made = 0;
    u64 in_play = equiv_cards(&s);
    int stopped;
    SEARCH_BEGIN
    made = begin_search() == 0;
    /* the top card of each run of equivalent cards, high to low; DDS scores the best card first and
       the others against its value: here each search starts from the best value found so far (in the
       search's move order instead, the nodes were 2-7% more once cashing winners no longer leads it) */
    int order[52], count = 0;
    for (int card = 51; card >= 0; card--) {
        if (!((legal >> card) & 1)) continue;
        if (equivalent_above(legal, in_play, card) < 0) order[count++] = card;
    }
    for (int i = 0; i < count && made && !interrupted; i++) {
        int card = order[i];
        int saved, saved_trick[4], saved_win[4];
        memcpy(saved_trick, s.trick, sizeof saved_trick);
        memcpy(saved_win, s.win_off, sizeof saved_win);
        int gained = push(&s, player, card, &saved);
        int base = gained > 0 ? gained : 0, left = tricks_left(&s);
        /* the best value so far is the first guess: most cards are worth as much or a little less */
        int guess = last < 0 ? -1 : last - base < 0 ? 0 : last - base > left ? left : last - base;
        values[card] = base + solve_value(&s, 0, left, guess);
        if (last < 0 || (((s.max_mask >> player) & 1) ? values[card] > last : values[card] < last)) last = values[card];
        pop(&s, player, card, saved, gained, saved_trick);
        memcpy(s.win_off, saved_win, sizeof saved_win);
    }
    /* each lower equivalent card copies the one above it */
    for (int card = 51; card >= 0 && made; card--) {
        if (!((legal >> card) & 1)) continue;
        int above = equivalent_above(legal, in_play, card);
        if (above >= 0) values[card] = values[above];
    }
    stopped = interrupted, interrupted = 0; /* under the search lock, as in py_solve */
    SEARCH_END
    total_nodes += s.nodes;
    if (stopped) return NULL;
    if (!made) return PyErr_NoMemory();
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    for (int card = 0; card < 52; card++) {
        if (!((legal >> card) & 1)) continue;
        if (append_steal(out, Py_BuildValue("(ii)", card, values[card])) < 0) {
            Py_DECREF(out);
            return NULL;
        }
    }
    return out;
}

/* solve_best(...as solve...) -> (value, [card]): the position's value and every legal card that keeps it
   (DDS's SolveBoard with solutions=2).  A post-deal review needs no more than this and the value of the card
   played: each card is one zero-window search at the value instead of an exact value of its own, and the
   search that proves a card worse (the others can force a trick more on a seat that wants few) is the
   cheap kind, where the exact value of each card ends on the dear kind (they cannot force one more). */
static PyObject *py_solve_best(PyObject *self, PyObject *args) {
    State s;
    if (parse_state(args, &s) < 0) return NULL;
    int player = wrap(&s, s.leader + s.tlen);
    int maximizer = (s.max_mask >> player) & 1;
    u64 legal = legal_of(&s, player), best = 0, in_play = equiv_cards(&s);
    int value = -1, made = 0, stopped;
    SEARCH_BEGIN
    made = begin_search() == 0;
    if (made) value = solve_value(&s, 0, tricks_left(&s), -1);
    for (int card = 51; card >= 0 && made && !interrupted; card--) {
        if (!((legal >> card) & 1)) continue;
        int above = equivalent_above(legal, in_play, card);
        if (above >= 0) { /* a lower equivalent card: as the card above it */
            if ((best >> above) & 1) best |= 1ULL << card;
            continue;
        }
        int saved, saved_trick[4], saved_win[4];
        memcpy(saved_trick, s.trick, sizeof saved_trick);
        memcpy(saved_win, s.win_off, sizeof saved_win);
        int gained = push(&s, player, card, &saved);
        int won = gained > 0 ? gained : 0, left = tricks_left(&s), keeps;
        /* the counted side can reach `target` after this card: at least the value (a maximizer's card
           keeps it), or one more (a minimizer's card loses it) */
        int target = maximizer ? value : value + 1;
        u64 rel;
        if (target <= won) keeps = maximizer;
        else if (target > won + left) keeps = !maximizer;
        else keeps = reach(&s, won, target, in_play, &rel) == maximizer;
        if (keeps) best |= 1ULL << card;
        pop(&s, player, card, saved, gained, saved_trick);
        memcpy(s.win_off, saved_win, sizeof saved_win);
    }
    stopped = interrupted, interrupted = 0;
    SEARCH_END
    total_nodes += s.nodes;
    if (stopped) return NULL;
    if (!made) return PyErr_NoMemory();
    PyObject *cards = PyList_New(0);
    if (!cards) return NULL;
    for (int card = 0; card < 52; card++) {
        if (!((best >> card) & 1)) continue;
        if (append_steal(cards, PyLong_FromLong(card)) < 0) {
            Py_DECREF(cards);
            return NULL;
        }
    }
    return Py_BuildValue("(iN)", value, cards);
}

static PyObject *py_set_table_size(PyObject *self, PyObject *args) {
    Py_ssize_t bytes;
    if (!PyArg_ParseTuple(args, "n", &bytes)) return NULL;
    if (bytes < (Py_ssize_t)BUCKET_BYTES) {
        PyErr_SetString(PyExc_ValueError, "table too small");
        return NULL;
    }
    int failed;
    SEARCH_BEGIN /* not while a search in another thread uses the table */
    failed = table_alloc((size_t)bytes) < 0;
    SEARCH_END
    if (failed) return PyErr_NoMemory();
    Py_RETURN_NONE;
}

static PyObject *py_table_bytes(PyObject *self, PyObject *noargs) {
    return PyLong_FromSize_t(table_size);
}

static PyObject *py_nodes(PyObject *self, PyObject *noargs) { return PyLong_FromUnsignedLongLong(total_nodes); }

/* for the tests: move the generation counter, e.g. next to its wrap */
static PyObject *py_set_generation(PyObject *self, PyObject *args) {
    unsigned long value;
    if (!PyArg_ParseTuple(args, "k", &value)) return NULL;
    SEARCH_BEGIN
    generation = (uint32_t)value;
    SEARCH_END
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"solve", py_solve, METH_VARARGS,
     "solve(hands, leader, trick, trump, count_mask, max_mask, must_trump) -> counted tricks"},
    {"solve_all", py_solve_all, METH_VARARGS, "solve_all(...same...) -> [(card, value)] for every legal card"},
    {"solve_best", py_solve_best, METH_VARARGS, "solve_best(...same...) -> (value, [card]): every card that keeps it"},
    {"set_table_size", py_set_table_size, METH_VARARGS, "set_table_size(bytes): reallocate the table"},
    {"table_bytes", py_table_bytes, METH_NOARGS, "bytes of the transposition table"},
    {"nodes", py_nodes, METH_NOARGS, "search nodes since load"},
    {"_set_generation", py_set_generation, METH_VARARGS, "_set_generation(n): move the table's generation (tests)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_kernel",
                                    "Accelerated double-dummy search; see mizerka.solver.", -1, methods};

PyMODINIT_FUNC PyInit__kernel(void) {
    choose_make_key();
    return create_module(&module);
}
