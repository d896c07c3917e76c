// Every form control has an accessible name: a <label>, aria-label(ledby) or title.
// Evaluated by e2e/support.py (Checker.labels); returns the outerHTML of the unlabelled ones.
() => {
  const missing = [];
  for (const el of document.querySelectorAll('input:not([type=hidden]), select, textarea')) {
    const labelled = (el.labels && el.labels.length && [...el.labels].some(l => l.innerText.trim()))
      || (el.getAttribute('aria-label') || '').trim()
      || (el.getAttribute('aria-labelledby') || '').split(/\s+/).some(id => id && document.getElementById(id) && document.getElementById(id).innerText.trim())
      || (el.getAttribute('title') || '').trim()
      || (['submit', 'button', 'reset'].includes(el.type) && (el.value || '').trim());
    if (!labelled) missing.push(el.outerHTML.slice(0, 160));
  }
  return missing;
}
