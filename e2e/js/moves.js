// What the move section (#moves) of a game page offers, read the way a player sees it.
// Evaluated by e2e/tables.py; returns null when the page offers no move.
() => {
  const section = document.querySelector('#moves');
  if (!section) return null;
  const colourOf = (el) => {
    const card = el.querySelector('.mr-card');
    if (!card) return null;
    const cls = [...card.classList].find((c) => c.startsWith('mr-card--'));
    return cls ? cls.slice('mr-card--'.length) : null;
  };
  const groups = {};
  for (const radio of section.querySelectorAll('input[type=radio]')) {
    (groups[radio.name] = groups[radio.name] || []).push({ value: radio.value, checked: radio.checked });
  }
  const buttons = [...section.querySelectorAll('button[name=move]')].map((b, index) => ({
    index,
    value: b.value,
    text: (b.innerText || b.getAttribute('aria-label') || '').trim().replace(/\s+/g, ' '),
    label: b.getAttribute('aria-label') || '',
    secondary: b.classList.contains('secondary'),
    colour: colourOf(b),
  }));
  const unavailable = [...section.querySelectorAll('.is-unavailable')].map((c) => ({
    text: (c.innerText || '').trim().replace(/\s+/g, ' '),
    why: c.getAttribute('title') || '',
    colour: colourOf(c),
  }));
  const title = section.querySelector('h2');
  return {
    title: title ? title.innerText.trim() : '',
    help: [...section.querySelectorAll('.mv__help')].map((p) => p.innerText.trim()),
    groups,
    buttons,
    unavailable,
    submit: !!section.querySelector('button[type=submit]:not([name])'),
  };
}
