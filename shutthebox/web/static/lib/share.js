/* Share: the page's link, which already holds the game (Play's seed and moves) or the question (Coach's
 * fields), handed to the player. On a touch device with the Web Share API, the system's share sheet; else
 * the clipboard (navigator.clipboard.writeText); where neither works (no clipboard, or it is refused),
 * the link selected in a read-only field beside the button, for the player to copy. Both pages use it. */

import { el } from "./ui.js";

/** A touch screen (a coarse pointer): where the system's share sheet is what a player expects. */
const touch = () => Boolean(window.matchMedia?.("(pointer: coarse)").matches);

/**
 * Share `url` (default: the page's link). say(text): the status line. field: the read-only input of the
 * fallback, inside `shown` (its label, hidden until needed). -> a promise of how it went: "shared", "copied" or "selected".
 */
export async function shareLink(say, field, shown, url = location.href) {
  shown.hidden = true;
  if (navigator.share && touch()) {
    try {
      await navigator.share({ title: document.title, url });
      say("Link shared.");
      return "shared";
    } catch (error) {
      if (error?.name === "AbortError") { say("Not shared."); return "cancelled"; }
      // no share sheet after all: the clipboard, as on any other screen
    }
  }
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(url);
      say("Link copied.");
      return "copied";
    } catch {
      // refused (no permission, no focus): the link is selected instead
    }
  }
  field.value = url;
  shown.hidden = false;
  field.focus();
  field.select();
  say("The link is selected: copy it (Ctrl+C, or your device's Copy).");
  return "selected";
}

/** A Share button and its read-only field (ids `id` and `${id}-link`, the field in its label, hidden until
 * needed); say(text) is the status line. -> { button, field: the label to place, input } */
export function shareButton(id, say) {
  const input = el("input", { type: "text", id: `${id}-link`, class: "share-link", readonly: true, size: 40 });
  const field = el("label", { class: "field share-field", hidden: true }, "This page's link ", input);
  const button = el("button", { type: "button", id, title: "Copy this page's link: it holds the game or the question",
    onclick: () => shareLink(say, input, field) }, "Share");
  return { button, field, input };
}
