import { Component, lazy, Suspense, useMemo, useState, type ComponentType, type ErrorInfo, type ReactNode } from 'react';
import { Button } from '@chakra-ui/react';
import { ErrorState } from '../ui/states.tsx';

/** A part of the app whose code is its own download: what import() of its module answers. */
export type LoadPart<P> = () => Promise<{ default: ComponentType<P> }>;

/**
 * The part as a component, and a retry: React.lazy keeps a failed load for good, so each retry is
 * a new lazy component, hence a new download.
 */
export function useRetryableLazy<P>(load: LoadPart<P>) {
  const [attempt, setAttempt] = useState(0);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `attempt` is what makes a new lazy component
  const Part = useMemo(() => lazy(load), [load, attempt]);
  return { Part, attempt, retry: () => setAttempt((n) => n + 1) };
}

interface PartFailureProps {
  /** What the user was opening, in their words: "the review", "the upload page". */
  what: string;
  onRetry: () => void;
  /** Where the failure shows: the review has no layout yet, so it centres it on the page. */
  place?: (failure: ReactNode) => ReactNode;
  children: ReactNode;
}

/**
 * When a part's download fails (the network dropped, or a new release replaced the files), the
 * user reads why and retries in place instead of facing a blank screen.
 */
export class PartFailureBoundary extends Component<PartFailureProps, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: unknown): { error: Error } {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error(`${this.props.what} could not be loaded`, error, info.componentStack);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    const place = this.props.place ?? ((failure: ReactNode) => failure);
    return place(
      <ErrorState title={`${capitalised(this.props.what)} could not be loaded`} message={`Part of IVUS Review did not arrive; check the connection and retry. ${this.state.error.message}`} onRetry={this.props.onRetry}>
        {/* A new release replaces the files the page knows of: only a reload finds the new ones. */}
        <Button size="sm" variant="outline" onClick={() => window.location.reload()}>
          Reload the page
        </Button>
      </ErrorState>,
    );
  }
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A lazily loaded part with its loading state and its failure state. */
export function PartBoundary({ what, attempt, retry, fallback, place, children }: Omit<PartFailureProps, 'onRetry'> & { attempt: number; retry: () => void; fallback: ReactNode }) {
  return (
    <PartFailureBoundary key={attempt} what={what} onRetry={retry} place={place}>
      <Suspense fallback={fallback}>{children}</Suspense>
    </PartFailureBoundary>
  );
}
