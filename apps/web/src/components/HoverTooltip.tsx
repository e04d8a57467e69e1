import { cloneElement, useState, type FocusEvent, type MouseEvent, type ReactElement } from 'react';
import { Tooltip } from '@mantine/core';

type Trigger = ReactElement<{ onMouseEnter?: (e: MouseEvent) => void; onFocus?: (e: FocusEvent) => void }>;

/**
 * A Mantine Tooltip that is mounted on the first hover or focus of its target, and open from then
 * on like any Tooltip. A Tooltip costs a floating-ui instance, a portal and a transition per use;
 * on a results table that is one per row rendered before the first rows can paint (issue 23), for
 * a hint most rows never show. The target keeps its accessible name (aria-label) either way.
 *
 * @param label the tooltip's text, already translated
 * @param children one element that accepts `onMouseEnter` and `onFocus` (an icon, a badge)
 */
export function HoverTooltip({ label, children }: { label: string; children: Trigger }) {
  const [armed, setArmed] = useState(false);
  if (armed)
    return (
      <Tooltip label={label} defaultOpened>
        {children}
      </Tooltip>
    );
  // the target's own handlers still run
  const { onMouseEnter, onFocus } = children.props;
  return cloneElement(children, {
    onMouseEnter: (e: MouseEvent) => {
      onMouseEnter?.(e);
      setArmed(true);
    },
    onFocus: (e: FocusEvent) => {
      onFocus?.(e);
      setArmed(true);
    },
  });
}
