import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { User } from './api.js';

/** The signed-in user (null: nobody, undefined: not known yet). */
export const SessionContext = createContext<User | null | undefined>(undefined);

export const useUser = () => useContext(SessionContext);
/** Whether edit controls are shown: the API itself decides every write. */
export const useCanWrite = () => useContext(SessionContext)?.can_write === true;
export const useIsAdmin = () => useContext(SessionContext)?.admin === true;
