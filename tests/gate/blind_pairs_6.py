"""Blind pairs, sixth set: labelled by a session that never saw the gate's rules.

Written on 2026-12-04 by a helper session given only the four labels' definitions and asked
for 60 English and 40 Chinese pairs of what a coding agent and a work assistant store
(conventions, tools, paths, addresses, codes, scoped rules, first-person switches). Run once
on the rules of 43407b7 (lexical 4-class 0.44, against 0.42 on stop 23's final rules 0907c20
and on d11f243); then one rule was written from its one wrong merge (the same steps in the
other order), so figures after that are in sample (docs/benchmarks-dedup.md). Each row is
(candidate, stored, label, language, what makes it hard).
"""

# one pair per line, as written
# ruff: noqa: E501
from __future__ import annotations

from tests.gate.dedup_pairs import Pair

# fmt: off
_ROWS: list[tuple[str, str, str, str, str]] = [
    # ---------------- English: duplicate (15) ----------------
    ("Lint Python code with Ruff.", "We use ruff as the Python linter.", "duplicate", "en", "imperative vs first person, tool name case differs"),
    ("Staging API port: 8443.", "The staging API listens on port 8443.", "duplicate", "en", "terse note vs full sentence"),
    ("Node 20 is the required runtime for the dashboard repo.", "The dashboard repo requires Node.js v20.", "duplicate", "en", "Node vs Node.js, 20 vs v20"),
    ("Cut release branches as release/<major>.<minor>.", "Release branches follow the pattern release/X.Y.", "duplicate", "en", "same naming pattern written with different placeholders"),
    ("Internal docs live at docs.acme.io.", "The internal documentation site is https://docs.acme.io/.", "duplicate", "en", "same URL with and without scheme and trailing slash"),
    ("Never commit .env files.", "Do not check .env files into git.", "duplicate", "en", "never vs do not, commit vs check into git"),
    ("Ticket PAY-1042 tracks the refund timeout bug.", "The refund timeout bug is tracked in PAY-1042.", "duplicate", "en", "reordered around the ticket id"),
    ("Standup is at 9:45 every weekday.", "Daily standup: Mon-Fri, 09:45.", "duplicate", "en", "weekday vs Mon-Fri, 9:45 vs 09:45"),
    ("Search service - tech lead: Omar.", "Omar is the tech lead for the search service.", "duplicate", "en", "note format vs sentence"),
    ("Locally, the LOG_LEVEL env var should be debug.", "Set LOG_LEVEL=debug when running locally.", "duplicate", "en", "assignment syntax vs prose"),
    ("Buildkit cache path: $HOME/.cache/buildkit", "The build cache is stored in ~/.cache/buildkit.", "duplicate", "en", "~ vs $HOME, same path"),
    ("Requests larger than 10 megabytes are rejected.", "Max request body size is 10 MB.", "duplicate", "en", "limit stated as a rejection, MB vs megabytes"),
    ("For Go code I always let gofmt format it before committing.", "Run gofmt on Go code before every commit.", "duplicate", "en", "first-person habit vs imperative rule"),
    ("Production deploy days are Tue and Thu.", "Deploys to production happen only on Tuesdays and Thursdays.", "duplicate", "en", "abbreviated day names"),
    ("Design sync happens in room 4-B.", "The meeting room for the design sync is 4B.", "duplicate", "en", "4-B vs 4B, same room"),
    # ---------------- English: update (15) ----------------
    ("We switched from Jest to Vitest for the frontend tests.", "Frontend tests run on Jest.", "update", "en", "explicit switch of test runner"),
    ("The staging database host is now db-stg-02.internal.", "Staging DB host: db-stg-01.internal.", "update", "en", "hostnames differ by one digit"),
    ("Our CI runs on GitHub Actions.", "CI runs on Jenkins.", "update", "en", "no change marker, single-valued CI provider"),
    ("Send the weekly report to ops-team@helio.dev from now on.", "Send the weekly report to ops@helio.dev.", "update", "en", "emails differ by a few characters"),
    ("Python 3.12 is the project's minimum version now.", "Minimum supported Python is 3.10.", "update", "en", "version bump"),
    ("I've moved my dotfiles to ~/code/dotfiles.", "My dotfiles are in ~/dotfiles.", "update", "en", "path change, one path contains the other's tail"),
    ("Package manager for the monorepo: pnpm (replaced yarn).", "The monorepo uses yarn.", "update", "en", "switch stated in a parenthesis"),
    ("Liam took over as release manager for v3.", "Release manager for v3 is Sara.", "update", "en", "took over, owner changes"),
    ("Retro moved to Fridays at 4pm.", "Sprint retro is on Thursdays at 4pm.", "update", "en", "only the day changes"),
    ("The API rate limit was raised to 200 requests per minute.", "API rate limit: 100 req/min.", "update", "en", "raised, req/min vs requests per minute"),
    ("Default branch is main now, not master.", "The default branch is master.", "update", "en", "branch rename"),
    ("Use Postgres 16 for local development.", "Local dev runs on Postgres 14.", "update", "en", "no change marker, version differs"),
    ("The API dashboard URL changed to https://grafana.corp.io/d/api-v2.", "API dashboard: https://grafana.corp.io/d/api.", "update", "en", "near-identical URLs"),
    ("Code reviews for the auth module now go to Theo.", "Nina reviews all changes to the auth module.", "update", "en", "reviewer reworded as where reviews go"),
    ("Current RC build: 4812.", "The build number of the current release candidate is 4807.", "update", "en", "build numbers differ in the last digits"),
    # ---------------- English: contradiction (15) ----------------
    ("Always squash commits when merging PRs.", "Never squash commits when merging PRs.", "contradiction", "en", "always vs never, otherwise identical"),
    ("The payments service was first released in 2019.", "The payments service launched in 2021.", "contradiction", "en", "historical date cannot change"),
    ("Do mock the database in unit tests.", "Unit tests must never mock the database.", "contradiction", "en", "opposite testing rules, no change marker"),
    ("Commit messages must follow Conventional Commits.", "Don't use Conventional Commits for commit messages.", "contradiction", "en", "must vs don't"),
    ("Tests are allowed to hit the network.", "Tests must not make network calls.", "contradiction", "en", "allowed vs must not, different wording"),
    ("Incident INC-3310 was caused by an expired TLS certificate.", "INC-3310's root cause was a DNS misconfiguration.", "contradiction", "en", "past root cause cannot change"),
    ("Marco joined the company in 2022.", "Marco started here in 2020.", "contradiction", "en", "start date is fixed"),
    ("Build 5521 passed all tests.", "Build 5521 failed the integration tests.", "contradiction", "en", "result of one fixed build"),
    ("Run migrations before deploying the new code.", "Deploy the new code first, then run migrations.", "contradiction", "en", "opposite ordering"),
    ("Secrets may be stored in the repo if they're encrypted.", "Secrets must never be stored in the repo, encrypted or not.", "contradiction", "en", "exception allowed vs explicitly excluded"),
    ("Dana wrote the original version of the parser module.", "The parser module was originally written by Kevin.", "contradiction", "en", "original authorship cannot change"),
    ("Hotfixes can skip code review.", "Every hotfix needs code review, no exceptions.", "contradiction", "en", "can skip vs no exceptions"),
    ("The June 5 outage lasted 40 minutes.", "The outage on June 5 lasted about three hours.", "contradiction", "en", "duration of a past event"),
    ("Pull requests may be merged by their author.", "Authors must never merge their own pull requests.", "contradiction", "en", "may vs must never, reordered"),
    ("Every user-facing change needs a feature flag.", "User-facing changes don't need feature flags.", "contradiction", "en", "needs vs don't need"),
    # ---------------- English: unrelated (15) ----------------
    ("Also run mypy before pushing.", "Always run the unit tests before pushing.", "unrelated", "en", "also: an added pre-push check"),
    ("Use Prettier for the frontend.", "Use Black for the backend Python code.", "unrelated", "en", "formatter rules for different scopes"),
    ("The admin UI runs on port 3001.", "The public web app runs on port 3000.", "unrelated", "en", "near-identical ports, different services"),
    ("Eva Lind's email is eva.lind@orbit.dev.", "Eve Lind's email is eve.lind@orbit.dev.", "unrelated", "en", "two people, near-identical names and emails"),
    ("I also use Neovim for quick edits.", "I use VS Code as my main editor.", "unrelated", "en", "also: a second editor"),
    ("Ticket OPS-218 tracks the log rotation fix.", "Ticket OPS-281 tracks the backup alerting work.", "unrelated", "en", "ticket ids with swapped digits"),
    ("In tests, use the in-memory SQLite database.", "In production, the app uses PostgreSQL.", "unrelated", "en", "database rules for different scopes"),
    ("Priya also owns the notifications service.", "Priya owns the billing service.", "unrelated", "en", "also: one owner, many services"),
    ("The docs site deploys from the gh-pages branch.", "The app deploys from the release branch.", "unrelated", "en", "same attribute, different subject"),
    ("We added Redis for caching session data.", "We use PostgreSQL as the primary database.", "unrelated", "en", "added datastore, not a replacement"),
    ("Worker config is in config/worker.yaml.", "Web server config is in config/web.yaml.", "unrelated", "en", "similar paths for different components"),
    ("The mobile team's standup is at 10:00.", "The backend team's standup is at 9:30.", "unrelated", "en", "same meeting type, different teams"),
    ("Set NODE_ENV=test in the test runner.", "Set NODE_ENV=production in the Docker image.", "unrelated", "en", "same variable, different scopes"),
    ("Never log request bodies.", "Always log request IDs.", "unrelated", "en", "never vs always but about different things"),
    ("Room 3.14 is booked for the architecture review.", "Room 3.41 is where the on-call team sits.", "unrelated", "en", "room numbers with swapped digits"),
    # ---------------- Chinese: duplicate (10) ----------------
    ("前端代码统一用 Prettier 格式化。", "前端用 Prettier 做代码格式化。", "duplicate", "zh", "语序不同"),
    ("测试库端口：5433", "测试环境数据库端口是 5433。", "duplicate", "zh", "笔记简写 vs 完整句子"),
    ("每周五 17:00 之前把周报交给王经理。", "周报每周五下午五点前发给王经理。", "duplicate", "zh", "24 小时制 vs 下午五点"),
    ("登录页白屏的问题记在 BUG-7781。", "工单号 BUG-7781 对应登录页白屏问题。", "duplicate", "zh", "围绕工单号调换语序"),
    ("依赖管理工具：pnpm", "我们用 pnpm 管理依赖。", "duplicate", "zh", "第一人称 vs 笔记"),
    ("Orion 的日志目录是 /var/log/orion。", "日志文件放在 /var/log/orion/ 下面。", "duplicate", "zh", "路径末尾斜杠不同"),
    ("支付模块的 code review 由李娜来做。", "李娜负责支付模块的代码审查。", "duplicate", "zh", "中英混写，code review vs 代码审查"),
    ("发布之前必须执行 E2E 测试。", "每次发版前都要跑一遍端到端测试。", "duplicate", "zh", "E2E vs 端到端，发布 vs 发版"),
    ("架构评审的会议室：A栋 12 层 03 室。", "架构评审在 A 座 1203 开。", "duplicate", "zh", "房间号写法不同"),
    ("API timeout：30s", "接口超时时间设为 30 秒。", "duplicate", "zh", "英文缩写 vs 中文"),
    # ---------------- Chinese: update (10) ----------------
    ("我们改用 GitLab CI 了。", "我们的 CI 用的是 Jenkins。", "update", "zh", "改用，第一人称"),
    ("测试服务器地址换成了 10.0.3.21。", "测试服务器地址是 10.0.3.12。", "update", "zh", "IP 末位数字调换"),
    ("后端的负责人现在是赵磊。", "后端负责人：陈静。", "update", "zh", "负责人变更"),
    ("Node 版本升级到 22 了。", "项目用 Node 18。", "update", "zh", "版本升级"),
    ("站会挪到上午十点了。", "每天站会九点半开始。", "update", "zh", "时间变更，挪到"),
    ("发票请寄到 finance@xinghe.cn。", "发票寄到 fin@xinghe.cn。", "update", "zh", "无变更词，邮箱相近"),
    ("构建产物现在输出到 dist/ 目录。", "构建产物输出在 build/ 目录。", "update", "zh", "输出目录变更"),
    ("我已经把默认 shell 换成 zsh 了。", "我的默认 shell 是 bash。", "update", "zh", "第一人称换工具"),
    ("上传文件大小上限调整为 50MB。", "上传文件最大 20MB。", "update", "zh", "数值调整"),
    ("项目文档迁到了飞书。", "项目文档放在 Confluence 上。", "update", "zh", "迁到，平台变更"),
    # ---------------- Chinese: contradiction (10) ----------------
    ("提交代码前必须 rebase。", "提交代码前不要 rebase。", "contradiction", "zh", "必须 vs 不要"),
    ("单元测试里可以访问真实数据库。", "单元测试绝对不能连真实数据库。", "contradiction", "zh", "可以 vs 绝对不能"),
    ("v1.0 是 2020 年发布的。", "v1.0 于 2022 年上线。", "contradiction", "zh", "历史发布时间不会变"),
    ("这个仓库是张伟创建的。", "仓库的创建者是刘洋。", "contradiction", "zh", "创建者不会变"),
    ("生产环境允许开启调试模式。", "生产环境禁止开启调试模式。", "contradiction", "zh", "允许 vs 禁止，其余相同"),
    ("上周的故障是磁盘写满导致的。", "上周那次故障的原因是内存泄漏。", "contradiction", "zh", "过去事件的原因"),
    ("周五可以发布上线。", "周五禁止发布。", "contradiction", "zh", "可以 vs 禁止"),
    ("王芳是 2018 年入职的。", "王芳 2021 年才加入公司。", "contradiction", "zh", "入职时间固定"),
    ("日志里可以打印用户手机号。", "日志中不得出现用户手机号。", "contradiction", "zh", "可以 vs 不得，措辞不同"),
    ("第一版支付系统是用 Java 写的。", "最初的支付系统是用 Go 写的。", "contradiction", "zh", "历史事实，第一版 vs 最初"),
    # ---------------- Chinese: unrelated (10) ----------------
    ("提交前还要跑一下 eslint。", "提交前要先跑单元测试。", "unrelated", "zh", "还：新增检查"),
    ("对于后端，用 pytest 写测试。", "对于前端，测试用 Vitest。", "unrelated", "zh", "不同作用域的规则"),
    ("赵磊也负责运维值班。", "赵磊负责后端开发。", "unrelated", "zh", "也：同一人多个职责"),
    ("订单服务的端口是 8081。", "用户服务的端口是 8080。", "unrelated", "zh", "端口相近，服务不同"),
    ("测试环境的配置在 config/test.yaml。", "生产环境的配置在 config/prod.yaml。", "unrelated", "zh", "路径相近，环境不同"),
    ("我们还用 Sentry 做错误监控。", "我们用 Prometheus 做指标监控。", "unrelated", "zh", "还：新增工具，不是替换"),
    ("工单 OPS-1201 是证书续期。", "工单 OPS-1210 是日志清理。", "unrelated", "zh", "工单号数字调换"),
    ("周三下午是前端组的分享会。", "周三上午是后端组周会。", "unrelated", "zh", "同一天不同团队不同会议"),
    ("liu.yang@hexa.cn 是刘洋的邮箱。", "liu.yan@hexa.cn 是刘艳的邮箱。", "unrelated", "zh", "两个人，邮箱只差一个字母"),
    ("在测试里用假的时钟，不要用系统时间。", "在生产代码里统一用 UTC 时间。", "unrelated", "zh", "不同作用域的时间规则"),
]
# fmt: on

BLIND_PAIRS_6: list[Pair] = [
    Pair(candidate, stored, label, "blind 6", language, held_out=True)
    for candidate, stored, label, language, _ in _ROWS
]
