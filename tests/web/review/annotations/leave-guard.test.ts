import { afterEach, describe, expect, it, vi } from 'vitest';
import { decideLeave, guardUnsavedLeave, LeaveQuestion, type LeaveAnswer, type LeaveChoices } from '../../../../src/web/review/annotations/leave-guard.ts';

function choices({ unsaved = true, answer = 'stay' as LeaveAnswer, saved = true } = {}) {
  return {
    unsaved: vi.fn(() => unsaved),
    ask: vi.fn(async () => answer),
    save: vi.fn(async () => saved),
    discard: vi.fn(async () => {}),
  } satisfies LeaveChoices;
}

describe('when leaving the review asks, and what each answer does', () => {
  it('leaves without a question when nothing is unsaved', async () => {
    const c = choices({ unsaved: false });
    expect(await decideLeave(c)).toBe(true);
    expect(c.ask).not.toHaveBeenCalled();
    expect(c.save).not.toHaveBeenCalled();
    expect(c.discard).not.toHaveBeenCalled();
  });

  it('Stay keeps the clinician here with the edits: nothing saved, nothing dropped', async () => {
    const c = choices({ answer: 'stay' });
    expect(await decideLeave(c)).toBe(false);
    expect(c.ask).toHaveBeenCalledOnce();
    expect(c.save).not.toHaveBeenCalled();
    expect(c.discard).not.toHaveBeenCalled();
  });

  it('Discard drops the edits and then leaves', async () => {
    const c = choices({ answer: 'discard' });
    expect(await decideLeave(c)).toBe(true);
    expect(c.discard).toHaveBeenCalledOnce();
    expect(c.save).not.toHaveBeenCalled();
  });

  it('Save stores the edits and then leaves, but stays when they were not stored', async () => {
    const stored = choices({ answer: 'save', saved: true });
    expect(await decideLeave(stored)).toBe(true);
    expect(stored.save).toHaveBeenCalledOnce();
    expect(stored.discard).not.toHaveBeenCalled();

    const refused = choices({ answer: 'save', saved: false });
    expect(await decideLeave(refused)).toBe(false);
    expect(refused.discard).not.toHaveBeenCalled();
  });

  it('a second question replaces an unanswered one, which counts as Stay', async () => {
    const question = new LeaveQuestion();
    const first = question.ask();
    const second = question.ask();
    expect(await first).toBe('stay');
    expect(question.isOpen()).toBe(true);
    question.answer('discard');
    expect(await second).toBe('discard');
    expect(question.isOpen()).toBe(false);
  });
});

describe('the window guard of an open record', () => {
  let close: (() => void) | null = null;
  afterEach(() => {
    close?.();
    close = null;
    document.body.innerHTML = '';
    window.history.replaceState(null, '', '/');
  });

  function guard(unsaved: { value: boolean }, answer: boolean) {
    const confirmLeave = vi.fn(async () => {
      if (answer) unsaved.value = false; // Save or Discard leaves nothing unsaved
      return answer;
    });
    close = guardUnsavedLeave(() => unsaved.value, confirmLeave);
    return confirmLeave;
  }

  it('closing or reloading the tab with unsaved edits gets the browser’s question; without, none', () => {
    const unsaved = { value: true };
    guard(unsaved, false);
    const withEdits = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(withEdits);
    expect(withEdits.defaultPrevented).toBe(true);
    unsaved.value = false;
    const clean = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(clean);
    expect(clean.defaultPrevented).toBe(false);
  });

  it('the browser’s Back puts the review back before the router hears of it, and asks; Stay stays there', async () => {
    window.history.replaceState(null, '', '/patients/P-7/records/R-70/review');
    // The router listens from the start of the app, before any review opened.
    const routerSaw: string[] = [];
    const router = () => routerSaw.push(window.location.pathname);
    window.addEventListener('popstate', router);
    const confirmLeave = guard({ value: true }, false);
    const back = vi.spyOn(window.history, 'back');
    window.history.replaceState(null, '', '/patients/P-7/records'); // where the step went
    window.dispatchEvent(new PopStateEvent('popstate'));
    expect(window.location.pathname).toBe('/patients/P-7/records/R-70/review');
    expect(routerSaw.filter((path) => path !== '/patients/P-7/records/R-70/review')).toEqual([]);
    window.removeEventListener('popstate', router);
    await vi.waitFor(() => expect(confirmLeave).toHaveBeenCalledOnce());
    await Promise.resolve();
    expect(back).not.toHaveBeenCalled();
    back.mockRestore();
  });

  it('the browser’s Back, answered Save or Discard, steps back again to where it went', async () => {
    window.history.replaceState(null, '', '/patients/P-7/records/R-70/review');
    guard({ value: true }, true);
    const back = vi.spyOn(window.history, 'back').mockImplementation(() => {});
    window.dispatchEvent(new PopStateEvent('popstate'));
    await vi.waitFor(() => expect(back).toHaveBeenCalledOnce());
    back.mockRestore();
  });

  it('nothing unsaved: the browser’s Back goes where it went, without a question', () => {
    const confirmLeave = guard({ value: false }, false);
    window.history.replaceState(null, '', '/patients/P-7/records');
    window.dispatchEvent(new PopStateEvent('popstate'));
    expect(window.location.pathname).toBe('/patients/P-7/records');
    expect(confirmLeave).not.toHaveBeenCalled();
  });

  it('an in-app link asks first; Stay does not follow it, an answered leave follows the same link', async () => {
    window.history.replaceState(null, '', '/patients/P-7/records/R-70/review');
    document.body.innerHTML = '<a href="/patients">Patients</a><a href="https://example.org/">Elsewhere</a>';
    const [patients, elsewhere] = [...document.querySelectorAll('a')];
    const followed = vi.fn((event: MouseEvent) => event.preventDefault()); // stands for the router (jsdom does not navigate)
    document.body.addEventListener('click', followed);

    const stay = guard({ value: true }, false);
    patients!.click();
    expect(followed).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(stay).toHaveBeenCalledOnce());
    expect(followed).not.toHaveBeenCalled();
    // Another site is not the review's business (the browser asks on unload).
    elsewhere!.click();
    expect(followed).toHaveBeenCalledOnce();
    close!();

    followed.mockClear();
    const leave = guard({ value: true }, true);
    patients!.click();
    await vi.waitFor(() => expect(followed).toHaveBeenCalledOnce());
    expect(leave).toHaveBeenCalledOnce();
    expect((followed.mock.calls[0]![0].target as HTMLAnchorElement).getAttribute('href')).toBe('/patients');
  });

  describe('where the browser can cancel a history step (the Navigation API)', () => {
    function withNavigation() {
      const navigation = Object.assign(new EventTarget(), { traverseTo: vi.fn(() => ({ committed: Promise.resolve(), finished: Promise.resolve() })) });
      Object.defineProperty(window, 'navigation', { value: navigation, configurable: true });
      return navigation;
    }
    afterEach(() => {
      delete (window as { navigation?: unknown }).navigation;
    });
    const traverse = (key: string) => Object.assign(new Event('navigate', { cancelable: true }), { navigationType: 'traverse', destination: { key } });

    it('stops Back before the address changes and asks; Stay stays, a leave takes the same step', async () => {
      const navigation = withNavigation();
      const stay = guard({ value: true }, false);
      const back = traverse('records-entry');
      navigation.dispatchEvent(back);
      expect(back.defaultPrevented).toBe(true);
      await vi.waitFor(() => expect(stay).toHaveBeenCalledOnce());
      expect(navigation.traverseTo).not.toHaveBeenCalled();
      close!();

      const leave = guard({ value: true }, true);
      navigation.dispatchEvent(traverse('records-entry'));
      await vi.waitFor(() => expect(navigation.traverseTo).toHaveBeenCalledWith('records-entry'));
      expect(leave).toHaveBeenCalledOnce();
      // Taken again with nothing unsaved, the step goes through.
      const again = traverse('records-entry');
      navigation.dispatchEvent(again);
      expect(again.defaultPrevented).toBe(false);
    });

    it('lets every step through when nothing is unsaved', () => {
      const navigation = withNavigation();
      const confirmLeave = guard({ value: false }, false);
      const back = traverse('records-entry');
      navigation.dispatchEvent(back);
      expect(back.defaultPrevented).toBe(false);
      expect(confirmLeave).not.toHaveBeenCalled();
    });
  });
});
