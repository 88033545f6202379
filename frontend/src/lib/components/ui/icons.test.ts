// Each icon is drawn as one <path> whose subpaths are its strokes.

import { render } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import Icon from './Icon.svelte';
import { ICON_PATHS, ICONS, type IconName } from './icons';

describe('icons', () => {
  it('draws every icon as one path holding each of its strokes', () => {
    for (const name of Object.keys(ICONS) as IconName[]) {
      const { container, unmount } = render(Icon, { name });
      const paths = container.querySelectorAll('svg path');
      expect(paths, name).toHaveLength(1);
      expect(paths[0].getAttribute('d'), name).toBe(ICON_PATHS[name]);
      unmount();
    }
  });

  it('starts every stroke with an absolute moveto, as it was on a path of its own', () => {
    // template's last stroke is written "m14 12.5 …": as a later subpath a
    // relative moveto would start from where the previous stroke ended.
    expect(ICONS.template.at(-1)).toMatch(/^m/);
    for (const [name, parts] of Object.entries(ICONS)) {
      const d = ICON_PATHS[name as IconName];
      expect(d.match(/M/g)?.length ?? 0, name).toBeGreaterThanOrEqual(parts.length);
      let at = 0;
      for (const part of parts) {
        expect(d.slice(at, at + part.length), name).toBe(part.replace(/^m/, 'M'));
        at += part.length;
      }
      expect(at, name).toBe(d.length);
    }
  });
});
