// Cards: parsing the wire forms, sorting a hand, and drawing SVG faces and backs.
//
// A card is an integer 0..51, 13 * suit + rank, suits clubs=0 diamonds=1 hearts=2 spades=3, rank 0 = two ..
// 12 = ace (the engine's encoding).  The server may send a card as that integer or as text ("QH", "TH", "10♥").
//
// A card back carries no identity at all: no class, attribute, title or text that depends on the card.

import { cardName, rankIndex } from "./i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const SUIT_LETTERS = "CDHS";
const SUIT_SYMBOLS = "♣♦♥♠";
const RANK_LETTERS = "23456789TJQKA";

export const suitOf = (card) => Math.floor(card / 13);
export const rankOf = (card) => card % 13;
export const isRed = (suit) => suit === 1 || suit === 2;

/** Parse one card in any wire form: 0..51, "QH", "TH", "10H", "Q♥", "10♥". */
export function parseCard(value) {
  if (typeof value === "number" && Number.isInteger(value) && value >= 0 && value < 52) return value;
  if (typeof value !== "string") throw new Error(`not a card: ${JSON.stringify(value)}`);
  let text = value.trim().replace("\ufe0f", "").toUpperCase();
  if (/^\d+$/.test(text)) return parseCard(Number(text));
  const suitChar = text.slice(-1);
  let suit = SUIT_LETTERS.indexOf(suitChar);
  if (suit < 0) suit = SUIT_SYMBOLS.indexOf(suitChar);
  text = text.slice(0, -1);
  if (text === "10") text = "T";
  const rank = RANK_LETTERS.indexOf(text);
  if (suit < 0 || rank < 0 || text.length !== 1) throw new Error(`not a card: ${JSON.stringify(value)}`);
  return 13 * suit + rank;
}

/** The engine's text form of a card ("QH", "TH"): what the client sends back to the server. */
export function cardCode(card) {
  return RANK_LETTERS[rankOf(card)] + SUIT_LETTERS[suitOf(card)];
}

/** Parse a list of cards (an array of any wire forms, a space-separated string, or a 52-bit mask number). */
export function parseCards(value) {
  if (value == null) return [];
  if (Array.isArray(value)) return value.map(parseCard);
  if (typeof value === "string") return value.split(/[\s,]+/).filter(Boolean).map(parseCard);
  throw new Error(`not a list of cards: ${JSON.stringify(value)}`);
}

/**
 * The order in which suits are shown: trumps first, then alternating colours so that neighbouring suits never
 * share a colour when that can be helped.  *trump* is a suit (0..3) or null.
 */
export function suitOrder(trump) {
  const base = [3, 2, 0, 1]; // spades, hearts, clubs, diamonds: black, red, black, red
  if (trump == null) return base;
  const rest = base.filter((s) => s !== trump);
  const others = rest.filter((s) => isRed(s) !== isRed(trump));
  const same = rest.filter((s) => isRed(s) === isRed(trump));
  const out = [trump];
  while (others.length || same.length) {
    if (others.length) out.push(others.shift());
    if (same.length) out.push(same.shift());
  }
  return out;
}

/** Sort cards by suit (trumps first, colours alternating) and by rank, highest first. */
export function sortHand(cards, trump) {
  const order = suitOrder(trump);
  return [...cards].sort((a, b) => order.indexOf(suitOf(a)) - order.indexOf(suitOf(b)) || rankOf(b) - rankOf(a));
}

// Suit shapes in a 100 × 100 box.
const circle = (x, y, r) => `M${x - r} ${y}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0Z`;
export const SUIT_PATHS = [
  // clubs: three leaves and a stem
  circle(50, 28, 21) + circle(26, 58, 21) + circle(74, 58, 21) + "M45 44C45 78 40 90 30 98L70 98C60 90 55 78 55 44Z",
  // diamonds
  "M50 2L86 50L50 98L14 50Z",
  // hearts
  "M50 94C22 70 2 52 2 30C2 14 14 4 28 4C38 4 46 10 50 20C54 10 62 4 72 4C86 4 98 14 98 30C98 52 78 70 50 94Z",
  // spades
  "M50 2C78 28 98 44 98 62C98 76 88 84 76 84C66 84 58 79 54 71C55 83 60 92 70 98L30 98C40 92 45 83 46 71C42 79 34 84 24 84C12 84 2 76 2 62C2 44 22 28 50 2Z",
];

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (parent) parent.appendChild(node);
  return node;
}

function pip(parent, suit, x, y, size, flip = false) {
  const s = size / 100;
  const transform = flip
    ? `translate(${x + size / 2} ${y + size / 2}) rotate(180) scale(${s})`
    : `translate(${x - size / 2} ${y - size / 2}) scale(${s})`;
  el("path", { d: SUIT_PATHS[suit], transform, class: "pip" }, parent);
}

// Pip positions for the number cards (two .. ten), in the 100 × 140 card box.
const L = 31, C = 50, R = 69;
const PIPS = {
  0: [[C, 32], [C, 108]],
  1: [[C, 32], [C, 70], [C, 108]],
  2: [[L, 32], [R, 32], [L, 108], [R, 108]],
  3: [[L, 32], [R, 32], [C, 70], [L, 108], [R, 108]],
  4: [[L, 32], [R, 32], [L, 70], [R, 70], [L, 108], [R, 108]],
  5: [[L, 32], [R, 32], [C, 51], [L, 70], [R, 70], [L, 108], [R, 108]],
  6: [[L, 32], [R, 32], [C, 51], [L, 70], [R, 70], [C, 89], [L, 108], [R, 108]],
  7: [[L, 32], [R, 32], [L, 57], [R, 57], [C, 70], [L, 83], [R, 83], [L, 108], [R, 108]],
  8: [[L, 32], [R, 32], [C, 45], [L, 57], [R, 57], [L, 83], [R, 83], [C, 95], [L, 108], [R, 108]],
};

/**
 * An SVG face for *card*.  The SVG itself is decorative (`aria-hidden`); the element that holds it carries the
 * accessible name.  Indices use the current language's letters (Q / D / Д).
 */
export function cardFace(card) {
  const suit = suitOf(card);
  const rank = rankOf(card);
  const svg = el("svg", {
    viewBox: "0 0 100 140", class: `card-svg suit-${"cdhs"[suit]} ${isRed(suit) ? "red" : "black"}`,
    "aria-hidden": "true", focusable: "false",
  });
  el("rect", { x: 1, y: 1, width: 98, height: 138, rx: 8, class: "face-bg" }, svg);
  const index = rankIndex(rank);
  for (const flip of [false, true]) {
    const g = el("g", flip ? { transform: "rotate(180 50 70)" } : {}, svg);
    const text = el("text", { x: 12, y: 25, class: index.length > 1 ? "index ten" : "index", "text-anchor": "middle" }, g);
    text.textContent = index;
    pip(g, suit, 12, 36, 13);
  }
  if (rank <= 8) {
    for (const [x, y] of PIPS[rank]) pip(svg, suit, x, y, 17, y > 70);
  } else if (rank === 12) {
    pip(svg, suit, 50, 70, 46);
  } else {
    el("rect", { x: 22, y: 20, width: 56, height: 100, rx: 4, class: "court" }, svg);
    const letter = el("text", { x: 50, y: 74, class: "court-letter", "text-anchor": "middle" }, svg);
    letter.textContent = index;
    pip(svg, suit, 50, 98, 22);
    pip(svg, suit, 50, 40, 14, true);
  }
  return svg;
}

/** A card back.  Identical for every card: nothing in it depends on which card it hides. */
export function cardBack() {
  const svg = el("svg", { viewBox: "0 0 100 140", class: "card-svg back", "aria-hidden": "true", focusable: "false" });
  el("rect", { x: 1, y: 1, width: 98, height: 138, rx: 8, class: "back-bg" }, svg);
  el("rect", { x: 8, y: 8, width: 84, height: 124, rx: 5, class: "back-frame" }, svg);
  for (let i = -140; i < 100; i += 12) {
    el("line", { x1: i + 8, y1: 132, x2: i + 8 + 124, y2: 8, class: "back-line" }, svg);
  }
  el("rect", { x: 8, y: 8, width: 84, height: 124, rx: 5, class: "back-frame" }, svg);
  return svg;
}

/** A suit symbol as a small inline SVG (decorative). */
export function suitIcon(suit) {
  const svg = el("svg", { viewBox: "0 0 100 100", class: `suit-icon ${isRed(suit) ? "red" : "black"}`,
    "aria-hidden": "true", focusable: "false" });
  el("path", { d: SUIT_PATHS[suit] }, svg);
  return svg;
}

/**
 * A face-up card as an element: `<div class="card" data-card="QH" aria-label="Queen of hearts">`.
 * Used for the visible cards only (own hand, the trick, own discards); never for another seat's hidden cards.
 */
export function cardElement(card, tag = "div") {
  const node = document.createElement(tag);
  node.className = "card";
  node.dataset.card = cardCode(card);
  node.setAttribute("aria-label", cardName(card));
  if (tag === "div") node.setAttribute("role", "img");
  node.appendChild(cardFace(card));
  return node;
}

/** A face-down card element (an opponent's card, the talon): no identity anywhere. */
export function backElement() {
  const node = document.createElement("div");
  node.className = "card card-back";
  node.setAttribute("aria-hidden", "true");
  node.appendChild(cardBack());
  return node;
}
