import { afterEach, describe, expect, it, vi } from 'vitest';
import { render } from '@testing-library/react';
import { useShortcut } from '../../../src/web/ui/shortcuts.ts';

function ShortcutProbe({ onPress }: { onPress: () => void }) {
  useShortcut('Ctrl+S', onPress);
  return (
    <div>
      <button id="plain">Save</button>
      <input id="name" />
      <div role="menu">
        <div id="item" role="menuitem" tabIndex={-1}>
          Export CSV
        </div>
      </div>
      <div role="dialog">
        <button id="in-dialog">OK</button>
      </div>
    </div>
  );
}

const press = (target: Element) => target.dispatchEvent(new KeyboardEvent('keydown', { key: 's', ctrlKey: true, bubbles: true, cancelable: true }));

describe('toolbar shortcuts', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('run from the page or a plain button, but not while a text field, a menu or a dialog has the focus', () => {
    const onPress = vi.fn();
    const { container } = render(<ShortcutProbe onPress={onPress} />);
    press(container.querySelector('#plain')!);
    expect(onPress).toHaveBeenCalledTimes(1);
    for (const id of ['name', 'item', 'in-dialog']) press(container.querySelector(`#${id}`)!);
    expect(onPress).toHaveBeenCalledTimes(1);
  });
});
