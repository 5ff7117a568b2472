import { act, fireEvent, screen } from '@testing-library/react';
import { UiProviders } from '../../../../src/web/app/ui-providers.tsx';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { newText } from '../../../../src/domain/annotations/drag.ts';
import { emptyManifest } from '../../../../src/domain/annotations/manifest.ts';
import { AnnotationStore } from '../../../../src/web/review/manifest/annotation-store.ts';
import { LabelCards } from '../../../../src/web/review/annotations/label-cards.tsx';
import { useState } from 'react';

const IDENTITY = { x: 0, y: 0, scaleX: 1, scaleY: 1 };

describe('a note card', () => {
  it('keeps the text typed just before the card closes (the slice changed within the 300 ms debounce)', () => {
    const store = new AnnotationStore();
    store.load({ version: 1, manifest: emptyManifest(), savedBy: 'a@demo.test', savedAt: '2026-11-01T00:00:00Z' });
    const note = newText(store.getSnapshot().manifest, 1, { x: 10, y: 10 });
    store.add(note);
    let showSlice: (shown: boolean) => void = () => {};
    function Cards() {
      const [shown, setShown] = useState(true);
      showSlice = setShown;
      return <LabelCards annotations={shown ? [note] : []} store={store} transform={IDENTITY} pixelSpacingMm={0.01} selectedId={null} focusTextId={null} onGripDown={() => {}} />;
    }
    render(
      <UiProviders>
        <Cards />
      </UiProviders>,
    );
    fireEvent.change(screen.getByRole('textbox', { name: `Note ${note.label}` }), { target: { value: 'calcified nodule' } });
    // At once, before the debounce: the card goes, as when the wheel moves to the next slice.
    act(() => showSlice(false));
    expect(store.getSnapshot().manifest.text[0]?.text).toBe('calcified nodule');
  });
});
