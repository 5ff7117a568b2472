import { Icon, type IconProps } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/** Line icons drawn on a 24-unit grid in the current text colour; decorative, so hidden from assistive technology. */
function lineIcon(name: string, shapes: ReactNode) {
  function LineIcon(props: IconProps) {
    // Chakra v3's Icon styles its child element (asChild): it needs a real <svg> to wrap.
    return (
      <Icon aria-hidden="true" focusable="false" {...props} asChild>
        <svg width="1em" height="1em" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
          {shapes}
        </svg>
      </Icon>
    );
  }
  LineIcon.displayName = name;
  return LineIcon;
}

export const BackIcon = lineIcon('BackIcon', <path d="M19 12H5m7-7-7 7 7 7" />);
export const SaveIcon = lineIcon(
  'SaveIcon',
  <>
    <path d="M5 3h11l5 5v11a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2z" />
    <path d="M7 3v5h8V3M7 21v-7h10v7" />
  </>,
);
export const RulerIcon = lineIcon(
  'RulerIcon',
  <>
    <path d="M3 17 17 3l4 4L7 21z" />
    <path d="m7 13 2 2m1-5 2 2m1-5 2 2" />
  </>,
);
export const AreaIcon = lineIcon('AreaIcon', <path d="M4 9c0-4 5-6 9-5s7 4 7 8-4 8-9 8-7-3-7-6z" />);
export const TextIcon = lineIcon('TextIcon', <path d="M5 6V4h14v2M12 4v16m-3 0h6" />);
export const AngleIcon = lineIcon(
  'AngleIcon',
  <>
    <path d="M4 20h16M4 20 16 5" />
    <path d="M10 20a6 6 0 0 0-2-4.5" />
  </>,
);
export const BrightnessIcon = lineIcon(
  'BrightnessIcon',
  <>
    <circle cx="12" cy="12" r="8" />
    <path d="M12 4a8 8 0 0 1 0 16z" fill="currentColor" />
  </>,
);
export const ContourIcon = lineIcon('ContourIcon', <circle cx="12" cy="12" r="8" strokeDasharray="3 3" />);
export const UploadIcon = lineIcon(
  'UploadIcon',
  <>
    <path d="M12 15V3m-5 5 5-5 5 5" />
    <path d="M4 15v4a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-4" />
  </>,
);
export const UsersIcon = lineIcon(
  'UsersIcon',
  <>
    <circle cx="9" cy="8" r="4" />
    <path d="M2 21a7 7 0 0 1 14 0M16 4a4 4 0 0 1 0 8m6 9a7 7 0 0 0-4-6.3" />
  </>,
);
export const SunIcon = lineIcon(
  'SunIcon',
  <>
    <circle cx="12" cy="12" r="4" />
    <path d="M12 2v2m0 16v2M4.9 4.9l1.4 1.4m11.4 11.4 1.4 1.4M2 12h2m16 0h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
  </>,
);
export const MoonIcon = lineIcon('MoonIcon', <path d="M20 14.5A8 8 0 1 1 9.5 4a6.5 6.5 0 0 0 10.5 10.5z" />);
export const SignOutIcon = lineIcon(
  'SignOutIcon',
  <>
    <path d="M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4" />
    <path d="m16 17 5-5-5-5m5 5H9" />
  </>,
);
export const PlayIcon = lineIcon('PlayIcon', <path d="M7 4v16l13-8z" />);
export const PauseIcon = lineIcon('PauseIcon', <path d="M7 4h3v16H7zm7 0h3v16h-3z" />);
export const ImageIcon = lineIcon(
  'ImageIcon',
  <>
    <rect x="3" y="3" width="18" height="18" rx="2" />
    <circle cx="9" cy="9" r="2" />
    <path d="m21 15-5-5L5 21" />
  </>,
);
export const SearchIcon = lineIcon(
  'SearchIcon',
  <>
    <circle cx="11" cy="11" r="7" />
    <path d="m20 20-4-4" />
  </>,
);
export const SortAscendingIcon = lineIcon('SortAscendingIcon', <path d="m6 15 6-6 6 6" />);
export const SortDescendingIcon = lineIcon('SortDescendingIcon', <path d="m6 9 6 6 6-6" />);
export const SortNoneIcon = lineIcon('SortNoneIcon', <path d="m8 10 4-4 4 4m-8 4 4 4 4-4" />);
export const AlertIcon = lineIcon(
  'AlertIcon',
  <>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 7v6m0 4h.01" />
  </>,
);
