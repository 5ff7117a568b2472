import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button } from '@chakra-ui/react';
import { FullPageMessage } from '../ui/full-page-message.tsx';

interface ErrorBoundaryState {
  error: Error | null;
}

/** A screen that throws while rendering shows a readable page instead of a blank one. */
export class AppErrorBoundary extends Component<{ children: ReactNode }, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('IVUS Review failed', error, info.componentStack);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <FullPageMessage
        title="Something went wrong"
        role="alert"
        actions={<Button onClick={() => window.location.reload()}>Reload</Button>}
      >
        {`The page could not be shown: ${this.state.error.message}`}
      </FullPageMessage>
    );
  }
}
