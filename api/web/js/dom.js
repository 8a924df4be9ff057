// Tiny DOM helpers: h() builds elements, text is always set as text (never parsed HTML).

/**
 * Build an element. `attrs` keys: class, text, on<Event> handlers, dataset via data-*,
 * anything else as an attribute (false/null/undefined skip it).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, any>} [attrs]
 * @param {...(Node|string|number|null|undefined|false|Array<any>)} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === false || value === null || value === undefined) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = String(value);
    // through the CSSOM: the Content-Security-Policy (style-src 'self') refuses style attributes
    else if (key === "style") el.style.cssText = String(value);
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

/** Append children (strings become text nodes; arrays are flattened; falsy skipped). */
export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Replace the contents of `el` with `children`. */
export function replace(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

/** A short status message for everyone, read out by screen readers too. */
export function toast(message, kind = "info") {
  const box = document.getElementById("toast");
  if (!box) return;
  box.className = `toast-${kind} show`;
  box.textContent = message;
  clearTimeout(/** @type {any} */ (toast).timer);
  /** @type {any} */ (toast).timer = setTimeout(() => box.classList.remove("show"), 6000);
}

/** "CardDrafted" -> "card drafted"; "choose_ai_side" -> "choose ai side". */
export function words(name) {
  return String(name).replace(/_/g, " ").replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2").replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/\bA I\b/g, "AI").split(" ").map((w) => (/^[A-Z0-9.]{2,}$/.test(w) ? w : w.toLowerCase())).join(" ");
}

/** Capitalise the first letter. */
export function capital(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}
