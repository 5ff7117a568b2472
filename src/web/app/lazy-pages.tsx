import { useEffect } from 'react';
import { LoadingState } from '../ui/states.tsx';
import { PartBoundary, useRetryableLazy, type LoadPart } from './lazy-part.tsx';
import { preloadReviewWhenIdle } from './review-preload.ts';

// Sign-in and the patients list come first; a patient's records, the upload page (its DICOM
// reading) and the users page (administration) download when opened (issue 27, first load).
const loadRecordsPage: LoadPart<{ patientId: string }> = () => import('../features/records/records-page.tsx').then((module) => ({ default: module.RecordsPage }));
const loadUploadPage: LoadPart<object> = () => import('../features/upload/upload-page.tsx').then((module) => ({ default: module.UploadPage }));
const loadUsersPage: LoadPart<{ isAdmin: boolean; currentEmail: string | null }> = () =>
  import('../features/users/users-page.tsx').then((module) => ({ default: module.UsersPage }));

export function LazyUploadPage() {
  const { Part: UploadPage, attempt, retry } = useRetryableLazy(loadUploadPage);
  return (
    <PartBoundary what="the upload page" attempt={attempt} retry={retry} fallback={<LoadingState label="Opening the upload page…" />}>
      <UploadPage />
    </PartBoundary>
  );
}

export function LazyUsersPage(props: { isAdmin: boolean; currentEmail: string | null }) {
  const { Part: UsersPage, attempt, retry } = useRetryableLazy(loadUsersPage);
  return (
    <PartBoundary what="the users page" attempt={attempt} retry={retry} fallback={<LoadingState label="Opening the users page…" />}>
      <UsersPage {...props} />
    </PartBoundary>
  );
}

export function LazyRecordsPage(props: { patientId: string }) {
  const { Part: RecordsPage, attempt, retry } = useRetryableLazy(loadRecordsPage);
  // A record is opened from here: its review's code comes while the clinician picks one (issue 27, first open to Play).
  useEffect(preloadReviewWhenIdle, []);
  return (
    <PartBoundary what="the records page" attempt={attempt} retry={retry} fallback={<LoadingState label="Opening the records…" />}>
      <RecordsPage {...props} />
    </PartBoundary>
  );
}
