/** Page modules of the routes whose first-visit JS is measured (keys of the Vite manifest). */
export const ROUTES = {
  home: 'src/features/home/pages/HomePage.tsx',
  'load search': 'src/features/loads/pages/LoadSearchPage.tsx',
  login: 'src/features/auth/pages/LoginPage.tsx',
  'post load': 'src/features/loads/pages/PostLoadPage.tsx',
  'load details': 'src/features/loads/pages/LoadDetailsPage.tsx',
  'my loads': 'src/features/loads/pages/MyLoadsPage.tsx',
} as const;
