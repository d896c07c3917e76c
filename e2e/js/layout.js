// Phone-size layout check: horizontal overflow, boxes sticking out, controls out of reach.
// Evaluated by e2e/support.py (Checker.layout); returns {scrollWidth, innerWidth, offenders, unreachable}.
() => {
  const W = window.innerWidth;
  const describe = (el) => {
    let s = el.tagName.toLowerCase();
    if (el.id) s += '#' + el.id;
    if (typeof el.className === 'string' && el.className.trim()) s += '.' + el.className.trim().split(/\s+/).slice(0, 3).join('.');
    const text = (el.innerText || el.value || el.getAttribute('aria-label') || '').trim().replace(/\s+/g, ' ');
    return text ? `${s} "${text.slice(0, 40)}"` : s;
  };
  const scrolls = (el) => {
    for (let a = el.parentElement; a && a !== document.documentElement; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (['auto', 'scroll'].includes(s.overflowX)) return a;
      if (['hidden', 'clip'].includes(s.overflowX)) return a;
    }
    return null;
  };
  const hiddenByCss = (el) => {
    for (let a = el; a; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.display === 'none' || s.visibility === 'hidden') return true;
      if (a.hasAttribute('hidden')) return true;
    }
    return false;
  };
  const tiny = (r) => r.width <= 1 && r.height <= 1;
  // Wholly off to the left is the "visible on focus" pattern (skip links): no scrolling, not cut off.
  const offLeft = (r) => r.right <= 0;
  const outside = (r) => !offLeft(r) && (r.right > W + 1 || r.left < -1);
  const offenders = [];
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || tiny(r) || !outside(r)) continue;
    if (scrolls(el) || hiddenByCss(el)) continue;
    const p = el.parentElement && el.parentElement.getBoundingClientRect();
    if (p && outside(p) && !scrolls(el.parentElement)) continue;  // report the outermost one
    offenders.push(`${describe(el)} spans x=${Math.round(r.left)}..${Math.round(r.right)}`);
  }
  const unreachable = [];
  const controls = document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, summary');
  for (const el of controls) {
    if (hiddenByCss(el)) continue;
    let target = el;
    let r = el.getBoundingClientRect();
    if ((tiny(r) || getComputedStyle(el).opacity === '0') && el.closest('label')) {
      target = el.closest('label');
      r = target.getBoundingClientRect();
    }
    if (el.closest('details:not([open])') && el.tagName !== 'SUMMARY') continue;
    if (!r.width || !r.height) { unreachable.push(`${describe(el)} has no box`); continue; }
    if (offLeft(r)) continue;
    const box = scrolls(target);
    if (box && ['auto', 'scroll'].includes(getComputedStyle(box).overflowX)) continue;  // reachable by scrolling that box
    if (outside(r)) unreachable.push(`${describe(el)} at x=${Math.round(r.left)}..${Math.round(r.right)}`);
    else if (box) {
      const b = box.getBoundingClientRect();
      if (r.right > b.right + 1 || r.left < b.left - 1) unreachable.push(`${describe(el)} clipped by ${describe(box)}`);
    }
  }
  // Text cut off inside a box that hides its overflow (ellipsis included: worth a look, not always wrong).
  const clipped = [];
  for (const el of document.body.querySelectorAll('*')) {
    const s = getComputedStyle(el);
    if (!['hidden', 'clip'].includes(s.overflowX) || hiddenByCss(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.width <= 2 || r.height <= 2) continue;  // visually-hidden helpers
    if (el.scrollWidth > el.clientWidth + 1 && (el.innerText || '').trim()) clipped.push(describe(el));
  }
  // Boxes the reader must scroll sideways (allowed for data tables by WCAG 1.4.10, worth a look).
  const sideways = [];
  for (const el of document.body.querySelectorAll('*')) {
    const s = getComputedStyle(el);
    if (!['auto', 'scroll'].includes(s.overflowX) || hiddenByCss(el)) continue;
    if (el.scrollWidth > el.clientWidth + 1) sideways.push(`${describe(el).slice(0, 60)} (${el.scrollWidth}px in ${el.clientWidth}px)`);
  }
  return {
    clipped: clipped.slice(0, 8),
    sideways: sideways.slice(0, 8),
    scrollWidth: document.documentElement.scrollWidth, innerWidth: W,
    offenders: offenders.slice(0, 12), unreachable: unreachable.slice(0, 12),
  };
}
