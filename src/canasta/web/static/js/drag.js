// Dragging a card of the hand onto a drop target (an element with data-drop: the pile, or one
// of the team's melds with its data-rank) with a mouse, a finger or a pen, through Pointer
// Events. Only the draggable cards have `touch-action: none` (canasta.css), so the page still
// scrolls from anywhere else. A press that moves less than SLOP pixels stays a tap: the click
// that follows chooses the card, as it always did.

const SLOP = 8;

function dropTarget(x, y) {
  const hit = document.elementFromPoint(x, y);
  return hit ? hit.closest('[data-drop]') : null;
}

// A copy of the card that follows the pointer (no data-card: it is not another card).
function ghostOf(card) {
  const ghost = card.cloneNode(true);
  ghost.className = card.className.replace(/\b(in-hand|selected|draggable)\b/g, '') + ' ghost';
  for (const name of ['data-card', 'data-index', 'aria-pressed', 'aria-label']) ghost.removeAttribute(name);
  ghost.setAttribute('aria-hidden', 'true');
  ghost.tabIndex = -1;
  const box = card.getBoundingClientRect();
  ghost.style.left = `${box.left}px`;
  ghost.style.top = `${box.top}px`;
  return ghost;
}

// A drag ends with a click on the card (or where the pointer was let go): it must not count.
function swallowClick() {
  const stop = (event) => {
    event.stopPropagation();
    event.preventDefault();
  };
  window.addEventListener('click', stop, { capture: true, once: true });
  setTimeout(() => window.removeEventListener('click', stop, { capture: true }), 0);
}

// Make `card` draggable; `onDrop(where, rank, target)` is called when it is let go over a drop
// target (`target` is its element).
export function makeDraggable(card, onDrop) {
  card.classList.add('draggable');
  card.addEventListener('pointerdown', (down) => {
    if (!down.isPrimary || down.button !== 0) return;
    const id = down.pointerId;
    let ghost = null;
    let target = null;
    const mark = (next) => {
      if (next === target) return;
      target?.classList.remove('drop');
      target = next;
      target?.classList.add('drop');
    };
    const move = (event) => {
      if (event.pointerId !== id) return;
      const dx = event.clientX - down.clientX;
      const dy = event.clientY - down.clientY;
      if (!ghost) {
        if (Math.hypot(dx, dy) < SLOP) return;
        ghost = ghostOf(card);
        document.body.append(ghost);
        document.body.classList.add('dragging-card');
        card.classList.add('dragging');
      }
      ghost.style.transform = `translate(${dx}px, ${dy}px)`;
      mark(dropTarget(event.clientX, event.clientY));
    };
    // Listening on the window: a new state may redraw the hand (and drop this card) mid-drag.
    const end = (event) => {
      if (event.pointerId !== id) return;
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', end);
      window.removeEventListener('pointercancel', end);
      if (!ghost) return;  // a tap
      ghost.remove();
      document.body.classList.remove('dragging-card');
      card.classList.remove('dragging');
      const drop = event.type === 'pointerup' ? dropTarget(event.clientX, event.clientY) : null;
      mark(null);
      swallowClick();
      if (drop && drop !== card) onDrop(drop.dataset.drop, drop.dataset.rank, drop);
    };
    if (card.setPointerCapture) card.setPointerCapture(id);
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', end);
    window.addEventListener('pointercancel', end);
  });
}
