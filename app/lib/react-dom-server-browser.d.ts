// react-dom ships its web-streams renderer as "react-dom/server.browser"; @types/react-dom types it on "server".
declare module "react-dom/server.browser" {
  export { renderToReadableStream } from "react-dom/server";
}
