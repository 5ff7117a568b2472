// @vitest-environment-options {"url": "http://localhost:8080/patients"}
import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { App } from '../../../src/web/app/app.tsx';

describe('a host that names no tenant', () => {
  it('tells the user which address to open instead of calling the server', () => {
    const fetchMock = vi.fn<typeof fetch>();
    vi.stubGlobal('fetch', fetchMock);
    try {
      render(<App />);
      expect(screen.getByRole('heading', { name: 'Open your workspace address' })).toBeTruthy();
      expect(screen.getByRole('link', { name: 'http://demo.localhost:8080' }).getAttribute('href')).toBe(
        'http://demo.localhost:8080',
      );
      expect(fetchMock).not.toHaveBeenCalled();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
