import { afterEach, describe, expect, it } from 'vitest';
import { isKeyForFocusedControl } from '../../../../src/web/review/tools/keyboard-guard.ts';

function keyOn(target: EventTarget, init: KeyboardEventInit = { key: 'Delete' }): KeyboardEvent {
  let seen: KeyboardEvent | null = null;
  target.addEventListener('keydown', (event) => (seen = event as KeyboardEvent), { once: true });
  target.dispatchEvent(new KeyboardEvent('keydown', { bubbles: true, cancelable: true, ...init }));
  return seen!;
}

function mount(html: string): HTMLElement {
  document.body.innerHTML = html;
  return document.body;
}

describe('keyboard guard of the review tools', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('leaves keys on the page, a button or the panel to the tools', () => {
    const root = mount('<button id="b">Save</button><div id="panel" tabindex="0"></div>');
    expect(isKeyForFocusedControl(keyOn(document.body))).toBe(false);
    expect(isKeyForFocusedControl(keyOn(root.querySelector('#b')!))).toBe(false);
    expect(isKeyForFocusedControl(keyOn(root.querySelector('#panel')!, { key: 'z', ctrlKey: true }))).toBe(false);
  });

  it('gives keys typed in a text field, a dialog or a menu to them', () => {
    const root = mount(`
      <input id="text" /><textarea id="area"></textarea><div id="editable" contenteditable="true"></div>
      <div role="dialog"><button id="in-dialog">OK</button></div>
      <div role="alertdialog"><button id="in-alert">Leave</button></div>
      <div role="menu"><div role="menuitem" id="item">Delete</div></div>`);
    for (const id of ['text', 'area', 'in-dialog', 'in-alert', 'item']) {
      expect(isKeyForFocusedControl(keyOn(root.querySelector(`#${id}`)!)), id).toBe(true);
    }
  });

  it('ignores keys already handled and keys composing a character', () => {
    const root = mount('<div id="x"></div>');
    const target = root.querySelector('#x')!;
    target.addEventListener('keydown', (event) => event.preventDefault(), { once: true });
    expect(isKeyForFocusedControl(keyOn(target))).toBe(true);
    expect(isKeyForFocusedControl(keyOn(target, { key: 'a', isComposing: true }))).toBe(true);
  });
});
