# Production image: builds the web app and the server, runs `node server/dist/main.js <role>`.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY shared/package.json shared/
COPY server/package.json server/
COPY web/package.json web/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:20-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=10100
WORKDIR /app
COPY --from=build /app /app
RUN npm prune --omit=dev --workspaces --include-workspace-root
EXPOSE 10100
USER node
ENTRYPOINT ["node", "--enable-source-maps", "server/dist/main.js"]
CMD ["api"]
