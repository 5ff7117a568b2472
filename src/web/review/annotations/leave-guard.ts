/**
 * Leaving a review with unsaved annotation edits asks first (issue 26): Save (then leave), Discard
 * (drop the edits and their draft, then leave) or Stay. Every way out of the review goes through
 * `decideLeave`: the toolbar's Back, Upload, Users and Sign out ask it before they navigate; the
 * browser's Back and Forward and any in-app link are caught by `guardUnsavedLeave`; closing or
 * reloading the tab gets the browser's own question (a page cannot show its dialog then).
 */

/** The clinician's answer to the leave question. */
export type LeaveAnswer = 'save' | 'discard' | 'stay';

export interface LeaveChoices {
  /** Whether there are edits that leaving would lose. */
  unsaved: () => boolean;
  /** Shows the question; Escape or closing it answers 'stay'. */
  ask: () => Promise<LeaveAnswer>;
  /** Stores the edits as the next version; true only when they were stored. */
  save: () => Promise<boolean>;
  /** Drops the edits and the draft kept of them. */
  discard: () => Promise<void>;
}

/**
 * Whether the clinician may leave now. Nothing unsaved: yes, without a question. Otherwise their
 * answer decides; a Save that did not store the edits (refused, conflict answered by loading the
 * other version, no record in context) keeps them here, where the toast says why.
 */
export async function decideLeave(choices: LeaveChoices): Promise<boolean> {
  if (!choices.unsaved()) return true;
  const answer = await choices.ask();
  if (answer === 'stay') return false;
  if (answer === 'discard') {
    await choices.discard();
    return true;
  }
  return choices.save();
}

/**
 * The question waiting for its answer, as the leave dialog shows it. A second question while one
 * is open (Back pressed again) replaces it; the first counts as Stay, so only one leave goes on.
 */
export class LeaveQuestion {
  private pending: ((answer: LeaveAnswer) => void) | null = null;
  private readonly listeners = new Set<() => void>();

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Whether the question is showing. */
  isOpen = (): boolean => this.pending !== null;

  ask = (): Promise<LeaveAnswer> =>
    new Promise<LeaveAnswer>((resolve) => {
      this.pending?.('stay');
      this.pending = resolve;
      this.notify();
    });

  answer = (answer: LeaveAnswer): void => {
    const pending = this.pending;
    if (!pending) return;
    this.pending = null;
    this.notify();
    pending(answer);
  };

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}

/** A click that would follow an in-app link in this tab (not a new tab, a download or another site). */
function inAppLinkOf(event: MouseEvent): HTMLAnchorElement | null {
  if (event.defaultPrevented || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return null;
  const anchor = event.target instanceof Element ? event.target.closest('a[href]') : null;
  if (!(anchor instanceof HTMLAnchorElement) || anchor.hasAttribute('download')) return null;
  if (anchor.target && anchor.target !== '_self') return null;
  const to = new URL(anchor.href, window.location.href);
  if (to.origin !== window.location.origin) return null;
  // A link to this very page (an in-page anchor) leaves nothing.
  return to.pathname === window.location.pathname && to.search === window.location.search ? null : anchor;
}

/** The browser's Navigation API where it has one (Chromium); typed as optional, since Firefox and Safari lacked it. */
function navigationApi(): Navigation | undefined {
  return (window as { navigation?: Navigation }).navigation;
}

/**
 * While a record is open: closing or reloading the tab with unsaved edits gets the browser's
 * question (the draft in this browser is kept whatever the answer); the browser's Back and
 * Forward and in-app links ask `confirmLeave` first. Returns the removal of the listeners.
 *
 * A history step is stopped before it happens where the browser allows (the Navigation API's
 * cancelable `navigate` event): `popstate` comes too late for that, as the address changes some
 * tasks earlier and the router may render the page it names meanwhile, unmounting the review and
 * this guard (the issue-26 bug: Back went to the records at once). Where the step cannot be
 * stopped, `popstate` puts the review's address back and asks.
 */
export function guardUnsavedLeave(unsaved: () => boolean, confirmLeave: () => Promise<boolean>): () => void {
  const onBeforeUnload = (event: BeforeUnloadEvent) => {
    if (unsaved()) event.preventDefault();
  };
  const navigation = navigationApi();
  const onNavigate = (event: NavigateEvent) => {
    if (event.navigationType !== 'traverse' || !event.cancelable || !unsaved()) return;
    event.preventDefault();
    const { key } = event.destination;
    void confirmLeave().then((leave) => {
      if (!leave) return;
      // After Save or Discard nothing is unsaved: the same step is taken again and let through.
      const step = navigation!.traverseTo(key);
      step.committed?.catch(() => {});
      step.finished?.catch(() => {});
    });
  };
  const here = window.location.href;
  const onPopState = (event: PopStateEvent) => {
    if (!unsaved()) return;
    // Capture and stopImmediatePropagation: heard before the router's listener on the window.
    event.stopImmediatePropagation();
    // A history step that could not be cancelled: put the review back. The new entry sits on top
    // of the one the step went to, so one step back after Save or Discard goes there.
    window.history.pushState(window.history.state, '', here);
    void confirmLeave().then((leave) => {
      if (leave) window.history.back();
    });
  };
  const onClick = (event: MouseEvent) => {
    if (!unsaved()) return;
    const anchor = inAppLinkOf(event);
    if (!anchor) return;
    // Caught before the router's own click handler sees it; answered, the same link is followed.
    event.preventDefault();
    event.stopPropagation();
    void confirmLeave().then((leave) => {
      if (leave) anchor.click();
    });
  };
  window.addEventListener('beforeunload', onBeforeUnload);
  navigation?.addEventListener('navigate', onNavigate);
  window.addEventListener('popstate', onPopState, true);
  document.addEventListener('click', onClick, true);
  return () => {
    window.removeEventListener('beforeunload', onBeforeUnload);
    navigation?.removeEventListener('navigate', onNavigate);
    window.removeEventListener('popstate', onPopState, true);
    document.removeEventListener('click', onClick, true);
  };
}
