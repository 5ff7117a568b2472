import { useEffect, useState } from 'react';
import { useAuthUser } from '../../auth/auth-context.tsx';
import { draftOwnerFromIdToken, draftStore } from '../../review/index.ts';

/**
 * The records of `recordIds` that have unsaved annotation edits kept in this browser for the signed-in
 * user (the review's draft store), so their cards can say so before anyone opens them. Empty while
 * the drafts are read, and where the browser keeps none.
 */
export function useRecordDrafts(recordIds: readonly string[]): ReadonlySet<string> {
  const owner = draftOwnerFromIdToken(useAuthUser()?.idToken);
  const issuer = owner?.issuer;
  const subject = owner?.subject;
  const key = recordIds.join('\n');
  const [drafts, setDrafts] = useState<{ key: string; ids: ReadonlySet<string> }>({ key: '', ids: new Set() });
  useEffect(() => {
    if (!issuer || !subject || key === '') return;
    let current = true;
    const ids = key.split('\n');
    void Promise.all(ids.map((id) => draftStore.loadDraft({ issuer, subject }, id))).then((found) => {
      if (current) setDrafts({ key, ids: new Set(ids.filter((_, index) => found[index] !== null)) });
    });
    return () => {
      current = false;
    };
  }, [issuer, subject, key]);
  return drafts.key === key ? drafts.ids : new Set();
}
