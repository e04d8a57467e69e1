import { createTheme, type MantineColorsTuple } from '@mantine/core';

// Brand colours (spec §9): green #0FC474, red #F00053, yellow #ffcd00.
const masar: MantineColorsTuple = ['#e5fff3', '#cffbe5', '#a0f5ca', '#6defad', '#43ea95', '#27e785', '#0FC474', '#00b863', '#00a356', '#008d47'];
const masarRed: MantineColorsTuple = ['#ffe8f0', '#ffcfdd', '#ff9cb8', '#fe6591', '#fe3970', '#fe1d5b', '#F00053', '#e30048', '#cb003f', '#b20035'];

export const theme = createTheme({
  primaryColor: 'masar',
  primaryShade: { light: 7, dark: 6 },
  colors: { masar, masarRed },
  fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans Arabic', 'Noto Kufi Arabic', Tahoma, sans-serif",
  defaultRadius: 'md',
});
