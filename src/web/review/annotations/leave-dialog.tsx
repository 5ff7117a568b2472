import { useRef, useSyncExternalStore } from 'react';
import { Button } from '@chakra-ui/react';
import { QuestionDialog } from '../../ui/question-dialog.tsx';
import type { LeaveQuestion } from './leave-guard.ts';

export const LEAVE_DIALOG_TEXT = {
  title: 'Save your annotation changes?',
  message: 'Your annotation changes on this record are not saved. Save them as the next version, discard them, or stay on this record.',
};

/**
 * The leave question of an open record: Save, Discard or Stay. Stay has the focus, and Escape or a
 * click outside answers Stay, so a stray key never loses or stores work.
 */
export function LeaveDialog({ question }: { question: LeaveQuestion }) {
  const open = useSyncExternalStore(question.subscribe, question.isOpen);
  const stayRef = useRef<HTMLButtonElement>(null);
  if (!open) return null;
  return (
    <QuestionDialog
      title={LEAVE_DIALOG_TEXT.title}
      description={LEAVE_DIALOG_TEXT.message}
      safeButton={stayRef}
      onDismiss={() => question.answer('stay')}
      testId="leave-dialog"
      footer={
        <>
          <Button ref={stayRef} variant="outline" onClick={() => question.answer('stay')}>
            Stay
          </Button>
          <Button variant="outline" colorPalette="red" onClick={() => question.answer('discard')}>
            Discard
          </Button>
          <Button colorPalette="teal" onClick={() => question.answer('save')}>
            Save
          </Button>
        </>
      }
    />
  );
}
