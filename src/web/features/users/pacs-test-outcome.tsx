import { HStack, Spinner, Text } from '@chakra-ui/react';
import type { PacsTestResult } from '../../../domain/pacs.ts';
import { ApiError } from '../../api/api-client.ts';
import { testResultSentence } from './pacs-connection-form.ts';

export type PacsTestState =
  | { status: 'idle' }
  | { status: 'testing' }
  | { status: 'ok'; result: PacsTestResult }
  /** The PACS problem's own message ("The PACS refused the credentials: …"). */
  | { status: 'failed'; message: string };

/** What a failed test answered, as a person reads it. */
export function testFailure(error: unknown): PacsTestState {
  return { status: 'failed', message: error instanceof ApiError ? error.message : 'The connection could not be tested.' };
}

/** The outcome of a connection test, in a live region so that it is read out when it arrives. */
export function PacsTestOutcome({ state, testId }: { state: PacsTestState; testId?: string }) {
  let body = null;
  if (state.status === 'testing') {
    body = (
      <HStack gap="2" color="fg.muted">
        <Spinner size="xs" />
        <Text>Testing…</Text>
      </HStack>
    );
  } else if (state.status === 'ok') {
    body = (
      <Text color="fg.success" fontWeight="medium">
        {testResultSentence(state.result)}
      </Text>
    );
  } else if (state.status === 'failed') {
    body = (
      <Text color="fg.error" fontWeight="medium">
        {state.message}
      </Text>
    );
  }
  return (
    <Text as="div" textStyle="sm" aria-live="polite" data-testid={testId} data-status={state.status}>
      {body}
    </Text>
  );
}
