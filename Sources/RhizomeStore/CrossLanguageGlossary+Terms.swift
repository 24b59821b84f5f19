/// The terms of `CrossLanguageGlossary`: one per line, the term, a tab, and the English words a note on the
/// subject would hold. Japanese, Simplified and Traditional Chinese (one line where they are written alike);
/// the vocabulary of note-taking apps and their help pages, written for Rhizome without looking at any
/// question set. Words whose meaning differs between the languages are left out (`公式`: official in
/// Japanese, formula in Chinese) or given only in compounds (`数学公式`, `公式サイト`).
extension CrossLanguageGlossary {
    static let termsText = """
ファイル\tfile
ファイル名\tfile name filename
ファイル名を変更\trename file
ファイルパス\tfile path
フォルダ\tfolder
サブフォルダ\tsubfolder
新規フォルダ\tnew folder
ディレクトリ\tdirectory folder
保管庫\tvault
ボールト\tvault
共有保管庫\tshared vault
ノート\tnote notes
ノートブック\tnotebook
メモ\tnote memo
ページ\tpage
ドキュメント\tdocument documentation
新規ノート\tnew note
新規作成\tcreate new
新規\tnew
作成\tcreate
作る\tcreate make
作り\tcreate make
編集\tedit
編集モード\tediting mode edit
閲覧モード\treading mode
リーディングビュー\treading view
ソースモード\tsource mode
ソース\tsource
ライブプレビュー\tlive preview
プレビュー\tpreview
ページプレビュー\tpage preview
ホバー\thover
書式\tformatting format
フォーマット\tformat formatting
太字\tbold
斜体\titalic
取り消し線\tstrikethrough
下線\tunderline
ハイライト\thighlight
強調\temphasis bold
強調表示\thighlight
見出し\theading headings
タイトル\ttitle
リスト\tlist
箇条書き\tbullet list
番号付きリスト\tnumbered list
番号\tnumber numbering
チェックボックス\tcheckbox
チェックリスト\tchecklist checkbox
タスク\ttask tasks
テーブル\ttable
コードブロック\tcode block
コード\tcode
インラインコード\tinline code
シンタックスハイライト\tsyntax highlighting
引用\tquote blockquote citation
コールアウト\tcallout
脚注\tfootnote
数式\tmath formula equation
ダイアグラム\tdiagram
図表\tdiagram chart
区切り線\thorizontal rule divider
水平線\thorizontal rule
改行\tline break newline
段落\tparagraph
インデント\tindent indentation
折りたた\tfold collapse
折り畳\tfold collapse
展開\texpand unfold
閉じ\tclose
開く\topen
開け\topen
開き\topen
開い\topen
リンク\tlink links
内部リンク\tinternal link
外部リンク\texternal link
発リンク\toutgoing links
アウトゴーイングリンク\toutgoing links
バックリンク\tbacklinks
被リンク\tbacklinks
双方向リンク\tbidirectional links backlinks
リンクされていない言及\tunlinked mentions
未リンクの言及\tunlinked mentions
言及\tmention mentions
リンク切れ\tbroken link
孤立\torphan
埋め込\tembed
エイリアス\talias aliases
別名\talias aliases
タグ\ttag tags
ネスト\tnested nest
プロパティ\tproperties property
メタデータ\tmetadata
フロントマター\tfrontmatter
テンプレート\ttemplate templates
雛形\ttemplate
デイリーノート\tdaily notes
日記\tdaily notes journal diary
日付\tdate
タイムスタンプ\ttimestamp
カレンダー\tcalendar
週次\tweekly
検索\tsearch
全文検索\tfull text search
探す\tsearch find
探し\tsearch find
見つから\tnot found find
正規表現\tregular expression regex
大文字と小文字\tcase sensitive
大文字小文字\tcase sensitive
大文字\tuppercase case
小文字\tlowercase case
区別\tsensitive distinguish
フィルタ\tfilter
絞り込み\tfilter
置換\treplace
置き換\treplace
入れ替え\tswap replace
完全一致\texact match
演算子\toperator
クエリ\tquery
キーワード\tkeyword
並べ替\tsort
並び替\tsort
ソート\tsort
順番\torder sort
グラフ\tgraph
グラフビュー\tgraph view
ローカルグラフ\tlocal graph
キャンバス\tcanvas
ホワイトボード\twhiteboard canvas
カード\tcard cards
アウトライン\toutline
目次\ttable of contents outline
ブックマーク\tbookmarks bookmark
スター付き\tstarred
お気に入り\tfavorites starred bookmarks
ワークスペース\tworkspace
レイアウト\tlayout
タブ\ttab tabs
ペイン\tpane
分割\tsplit
画面分割\tsplit pane
サイドバー\tsidebar
リボン\tribbon
ツールバー\ttoolbar
メニュー\tmenu
右クリック\tright click context menu
コンテキストメニュー\tcontext menu
ステータスバー\tstatus bar
コマンドパレット\tcommand palette
コマンド\tcommand
クイックスイッチャー\tquick switcher
ホットキー\thotkeys shortcut
ショートカット\tshortcut hotkey
ショートカットキー\tkeyboard shortcut hotkey
キーボード\tkeyboard
キーボードショートカット\tkeyboard shortcut
キー割り当て\thotkey keybinding
テーマ\ttheme themes
外観\tappearance
フォント\tfont
フォントサイズ\tfont size
文字サイズ\tfont size
ダークモード\tdark mode
ライトモード\tlight mode
カラー\tcolor
アクセントカラー\taccent color
背景\tbackground
スニペット\tsnippet snippets
プラグイン\tplugin plugins
コアプラグイン\tcore plugins
コミュニティプラグイン\tcommunity plugins
サードパーティ\tthird party
拡張\textension extend
拡張機能\textension extensions plugin
機能\tfeature features
セーフモード\tsafe mode restricted mode
制限モード\trestricted mode
同期\tsync synchronize
競合\tconflict
履歴\thistory
バージョン履歴\tversion history
変更履歴\tversion history changes
バージョン\tversion
元に戻\tundo restore revert
戻す\trevert restore undo
戻し\trevert restore undo
やり直し\tredo
取り消し\tundo cancel
復元\trestore recover
ファイル復元\tfile recovery
ファイルリカバリー\tfile recovery
ゴミ箱\ttrash
ごみ箱\ttrash
削除\tdelete remove
消す\tdelete remove
消し\tdelete remove
消え\tdisappear lost missing
なくなった\tmissing lost disappear
完全に削除\tpermanently delete
バックアップ\tbackup
インポート\timport
エクスポート\texport
取り込\timport
読み込\timport load
書き出\texport
移行\tmigrate migration
乗り換え\tmigrate switch
変換\tconvert conversion
フォーマットコンバーター\tformat converter
拡張子\tfile extension
画像\timage images
写真\tphoto image
スクリーンショット\tscreenshot
添付ファイル\tattachments attachment
添付\tattachment attach
メディア\tmedia
音声\taudio voice
動画\tvideo
録音\taudio recording record
音声レコーダー\taudio recorder
手書き\thandwriting
描画\tdrawing draw
貼り付\tpaste
貼り\tpaste
ペースト\tpaste
コピー\tcopy
複製\tcopy duplicate
ドラッグ\tdrag
ドラッグアンドドロップ\tdrag and drop
ウェブクリッパー\tweb clipper
ウェブページ\tweb page webpage
ブラウザ\tbrowser
公開\tpublish public
パブリッシュ\tpublish
サイト\tsite website
ドメイン\tdomain
カスタムドメイン\tcustom domain
セルフホスト\tself hosted
共有\tshare sharing
共同編集\tcollaboration collaborate
コラボレーション\tcollaboration
チーム\tteam
招待\tinvite
権限\tpermission permissions
アカウント\taccount
ログイン\tlogin log in
サインイン\tsign in login
ログアウト\tlogout log out
登録\tregister sign up
二段階認証\ttwo factor authentication 2fa
2段階認証\ttwo factor authentication 2fa
二要素認証\ttwo factor authentication 2fa
認証\tauthentication
認証コード\tverification code
認証アプリ\tauthenticator app
パスワード\tpassword
パスワードを忘れ\tforgot password
メール\temail mail
暗号化\tencryption encrypt
エンドツーエンド\tend to end
プライバシー\tprivacy
セキュリティ\tsecurity
安全\tsecurity secure safe
データ\tdata
ライセンス\tlicense
価格\tprice pricing
料金\tpricing price fee
支払い\tpayment pay
請求書\tinvoice
領収書\treceipt
サブスクリプション\tsubscription
サブスク\tsubscription
月額\tmonthly
年間\tannual yearly
返金\trefund
割引\tdiscount
学生\tstudent
学割\tstudent discount
商用\tcommercial
会社\tcompany business
企業\tbusiness enterprise company
法人\tbusiness company
個人利用\tpersonal use
非営利\tnonprofit non profit
寄付\tdonate donation
無料\tfree
有料\tpaid
購入\tpurchase buy
買い切り\tone time purchase
キャンセル\tcancel
解約\tcancel subscription
有効期限\texpiration expiry
更新\tupdate renew
自動更新\tautomatic update renew
アップデート\tupdate
アップグレード\tupgrade
インストール\tinstall installation
アンインストール\tuninstall
ダウンロード\tdownload
アップロード\tupload
最新\tlatest
最新版\tlatest version
ベータ\tbeta
早期アクセス\tearly access
インサイダー\tinsider
リリースノート\trelease notes changelog
デスクトップ\tdesktop
モバイル\tmobile
スマホ\tphone mobile
スマートフォン\tsmartphone phone mobile
携帯\tmobile phone
タブレット\ttablet
パソコン\tcomputer desktop
コンピューター\tcomputer
コンピュータ\tcomputer
ウィンドウズ\twindows
マック\tmac macos
アンドロイド\tandroid
リナックス\tlinux
端末\tdevice terminal
デバイス\tdevice
ストレージ\tstorage
容量\tstorage capacity size
保存\tsave
保存場所\tsave location storage
場所\tlocation
パス\tpath
絶対パス\tabsolute path
相対パス\trelative path
シンボリックリンク\tsymlink symbolic link
クラウド\tcloud
ローカル\tlocal
オフライン\toffline
オンライン\tonline
サーバ\tserver
上限\tlimit maximum
制限\tlimit limitation restriction
最大\tmaximum max
ファイルサイズ\tfile size
アイクラウド\ticloud
リポジトリ\trepository repo
設定\tsettings preferences
環境設定\tpreferences settings
構成\tconfiguration config
設定ファイル\tconfig file configuration
除外\texclude excluded
無視\tignore
選択的同期\tselective sync
オプション\toptions
言語\tlanguage
日本語\tjapanese
翻訳\ttranslation translate
絵文字\temoji
全角\tfull width
半角\thalf width
空白\tblank whitespace empty
スペース\tspace
ヘルプ\thelp
サポート\tsupport
問い合わせ\tcontact support
お問い合わせ\tcontact support
よくある質問\tfaq
トラブルシューティング\ttroubleshooting
コミュニティ\tcommunity
フォーラム\tforum
マニュアル\tmanual documentation
使い方\tusage how to use
互換性\tcompatibility
動作環境\tsystem requirements
文字数\tcharacter count word count
ワードカウント\tword count
カウント\tcount
スライド\tslides
プレゼン\tpresentation
ランダム\trandom
ユニーク\tunique
コメント\tcomment comments
注釈\tannotation comment
マークダウン\tmarkdown
コマンドライン\tcommand line cli
ターミナル\tterminal
スクリプト\tscript
オープンソース\topen source
自動化\tautomation automate
自動\tautomatic auto
自動保存\tautosave auto save
手動\tmanual
人工知能\tai artificial intelligence
要約\tsummarize summary
生成\tgenerate
移動\tmove
移す\tmove
移し\tmove
動かす\tmove
動かし\tmove
名前を変更\trename
名前の変更\trename
リネーム\trename
非表示\thide hidden
隠す\thide
隠し\thide hidden
表示\tshow display view
表示されない\tnot showing
変更\tchange modify edit
変え\tchange
修正\tfix edit modify
追加\tadd
挿入\tinsert
上書き\toverwrite
読み取り専用\tread only
速い\tfast quick
高速\tfast speed
遅い\tslow
遅く\tslow
重い\tslow heavy lag
重く\tslow heavy lag
軽量\tlightweight
パフォーマンス\tperformance
起動\tstartup launch
クラッシュ\tcrash
落ちる\tcrash
強制終了\tforce quit crash
フリーズ\tfreeze hang
エラー\terror
不具合\tbug issue
バグ\tbug
動かない\tnot working
使えない\tnot working unavailable
失敗\tfail failed
反映\tapply update
適用\tapply
有効\tenable enabled
無効\tdisable disabled
切り替\ttoggle switch
切替\ttoggle switch
選択\tselect selection
選ぶ\tselect choose
一覧\tlist
一括\tbulk batch
まとめて\tbulk batch
重複\tduplicate repeat
結合\tmerge
マージ\tmerge
整理\torganize
階層\thierarchy nested
ファイルエクスプローラ\tfile explorer
戻る\tback navigate
画面\tscreen
デフォルト\tdefault
既定\tdefault
リセット\treset
初期化\treset initialize
再起動\trestart
再読み込み\treload
リロード\treload
キャッシュ\tcache
インデックス\tindex indexing
開発者ツール\tdeveloper tools console
コンソール\tconsole
アプリ\tapp
ウィンドウ\twindow
ウインドウ\twindow
ポップアウト\tpop out window
全画面\tfullscreen
ズーム\tzoom
拡大\tzoom in enlarge
縮小\tzoom out shrink
リサイズ\tresize
サイズ\tsize
行の長さ\tline length
行番号\tline numbers
行間\tline height spacing
余白\tmargin padding
スペルチェック\tspellcheck spell check
日本語入力\tjapanese input ime
自動補完\tautocomplete
補完\tautocomplete completion
ボタン\tbutton
アイコン\ticon
ピン留め\tpin pinned
固定\tpin fixed
スクロール\tscroll
知識管理\tknowledge management
ツェッテルカステン\tzettelkasten
マインドマップ\tmind map
プロジェクト\tproject
ブロック\tblock
ブロック参照\tblock reference
リマインダー\treminder
作成日\tcreated date creation
更新日\tmodified date
最近\trecent
外部エディタ\texternal editor
エディタ\teditor
ウィジェット\twidget
スワイプ\tswipe
長押し\tlong press
テキスト\ttext
プレーンテキスト\tplain text
印刷\tprint
データベース\tdatabase
モード\tmode
ワークフロー\tworkflow
ノートパソコン\tlaptop computer
メモリ\tmemory ram
クレジットカード\tcredit card
固ま\tfreeze hang
公式サイト\tofficial website
文件\tfile document
文件名\tfile name filename
檔名\tfile name filename
檔案\tfile
文件夹\tfolder
資料夾\tfolder
文件夾\tfolder
目录\tdirectory folder contents
目錄\tdirectory folder contents
仓库\tvault repository
倉庫\tvault repository
笔记库\tvault
筆記庫\tvault
知识库\tknowledge base vault
知識庫\tknowledge base vault
保险库\tvault
保險庫\tvault
存储库\trepository vault
儲存庫\trepository vault
笔记\tnote notes
筆記\tnote notes
页面\tpage
頁面\tpage
文档\tdocument docs
文檔\tdocument docs
新建\tcreate new
创建\tcreate
創建\tcreate
建立\tcreate
新增\tadd new create
添加\tadd
插入\tinsert
编辑\tedit
編輯\tedit
编辑模式\tediting mode
編輯模式\tediting mode
编辑器\teditor
編輯器\teditor
阅读模式\treading mode
閱讀模式\treading mode
阅读视图\treading view
閱讀視圖\treading view
源码模式\tsource mode
源碼模式\tsource mode
原始碼模式\tsource mode
实时预览\tlive preview
實時預覽\tlive preview
即時預覽\tlive preview
预览\tpreview
預覽\tpreview
页面预览\tpage preview
頁面預覽\tpage preview
悬停\thover
懸停\thover
格式\tformat formatting
粗体\tbold
粗體\tbold
加粗\tbold
斜體\titalic
删除线\tstrikethrough
刪除線\tstrikethrough
下划线\tunderline
下劃線\tunderline
高亮\thighlight
标题\theading title
標題\theading title
大纲\toutline
大綱\toutline
列表\tlist
无序列表\tbullet list unordered
無序列表\tbullet list unordered
有序列表\tnumbered list ordered
编号\tnumber numbering
編號\tnumber numbering
复选框\tcheckbox
複選框\tcheckbox
核取方塊\tcheckbox
任务\ttask tasks
任務\ttask tasks
待办\ttodo task
待辦\ttodo task
表格\ttable
代码块\tcode block
代碼塊\tcode block
程式碼區塊\tcode block
代码\tcode
代碼\tcode
程式碼\tcode
语法\tsyntax
語法\tsyntax
标注\tcallout annotation
標註\tcallout annotation
腳註\tfootnote
数学公式\tmath formula
數學公式\tmath formula
图表\tdiagram chart
圖表\tdiagram chart
流程图\tflowchart diagram
流程圖\tflowchart diagram
分割线\tdivider horizontal rule
分割線\tdivider horizontal rule
分隔线\tdivider horizontal rule
分隔線\tdivider horizontal rule
换行\tline break newline
換行\tline break newline
缩进\tindent indentation
縮進\tindent indentation
縮排\tindent indentation
折叠\tfold collapse
折疊\tfold collapse
摺疊\tfold collapse
展开\texpand unfold
链接\tlink links
鏈接\tlink links
連結\tlink links
内部链接\tinternal link
內部連結\tinternal link
内链\tinternal link
內鏈\tinternal link
外部链接\texternal link
外部連結\texternal link
双链\tbidirectional links backlinks
雙鏈\tbidirectional links backlinks
双向链接\tbidirectional links backlinks
雙向連結\tbidirectional links backlinks
出链\toutgoing links
出鏈\toutgoing links
反向链接\tbacklinks
反向連結\tbacklinks
反链\tbacklinks
反鏈\tbacklinks
未链接的提及\tunlinked mentions
未連結的提及\tunlinked mentions
提及\tmention mentions
嵌入\tembed
别名\talias aliases
标签\ttag tags
標籤\ttag tags
嵌套\tnested
属性\tproperties property attribute
屬性\tproperties property attribute
元数据\tmetadata
元數據\tmetadata
中繼資料\tmetadata
模板\ttemplate templates
范本\ttemplate
範本\ttemplate
日记\tdaily notes journal diary
每日笔记\tdaily notes
每日筆記\tdaily notes
日历\tcalendar
日曆\tcalendar
日期\tdate
搜索\tsearch
搜尋\tsearch
查找\tfind search
找不到\tnot found missing
正则表达式\tregular expression regex
正則表達式\tregular expression regex
正規表示式\tregular expression regex
正则\tregex regular expression
正則\tregex regular expression
区分大小写\tcase sensitive
區分大小寫\tcase sensitive
大小写\tcase
大小寫\tcase
过滤\tfilter
過濾\tfilter
筛选\tfilter
篩選\tfilter
替换\treplace
替換\treplace
匹配\tmatch
排序\tsort
图谱\tgraph view
圖譜\tgraph view
关系图\tgraph view
關係圖\tgraph view
关系图谱\tgraph view
關係圖譜\tgraph view
局部图谱\tlocal graph
局部圖譜\tlocal graph
白板\tcanvas whiteboard
画布\tcanvas
畫布\tcanvas
卡片\tcard cards
书签\tbookmarks bookmark
書籤\tbookmarks bookmark
星标\tstarred star
星標\tstarred star
收藏\tfavorites starred bookmarks
工作区\tworkspace
工作區\tworkspace
布局\tlayout
佈局\tlayout
标签页\ttab tabs
標籤頁\ttab tabs
分頁\ttab tabs
面板\tpane panel
窗格\tpane
分屏\tsplit screen pane
拆分\tsplit
侧边栏\tsidebar
側邊欄\tsidebar
功能区\tribbon
功能區\tribbon
工具栏\ttoolbar
工具欄\ttoolbar
工具列\ttoolbar
菜单\tmenu
菜單\tmenu
選單\tmenu
右键\tright click
右鍵\tright click
状态栏\tstatus bar
狀態欄\tstatus bar
狀態列\tstatus bar
命令面板\tcommand palette
命令\tcommand
快速切换\tquick switcher
快速切換\tquick switcher
快捷键\thotkeys keyboard shortcut
快捷鍵\thotkeys keyboard shortcut
热键\thotkey
熱鍵\thotkey
键盘\tkeyboard
鍵盤\tkeyboard
主题\ttheme themes
主題\ttheme themes
外观\tappearance
外觀\tappearance
样式\tstyle
樣式\tstyle
字体\tfont
字體\tfont
字号\tfont size
字號\tfont size
字型\tfont
深色模式\tdark mode
暗色模式\tdark mode
夜间模式\tdark mode night
夜間模式\tdark mode night
浅色模式\tlight mode
淺色模式\tlight mode
颜色\tcolor
顏色\tcolor
强调色\taccent color
強調色\taccent color
代码片段\tsnippet snippets
代碼片段\tsnippet snippets
程式碼片段\tsnippet snippets
插件\tplugin plugins
外挂\tplugin plugins
外掛\tplugin plugins
核心插件\tcore plugins
第三方插件\tcommunity plugins third party
社区插件\tcommunity plugins
社區插件\tcommunity plugins
社群外掛\tcommunity plugins
第三方\tthird party
扩展\textension extend
擴展\textension extend
擴充\textension
功能\tfeature features
安全模式\tsafe mode restricted mode
受限模式\trestricted mode
同步\tsync synchronize
选择性同步\tselective sync
選擇性同步\tselective sync
冲突\tconflict
衝突\tconflict
版本\tversion
版本历史\tversion history
版本歷史\tversion history
历史版本\tversion history
歷史版本\tversion history
历史\thistory
歷史\thistory
撤销\tundo
撤銷\tundo
撤回\tundo revert
复原\trestore undo
復原\trestore undo
恢复\trestore recover
恢復\trestore recover
还原\trestore revert
還原\trestore revert
找回\trecover retrieve
文件恢复\tfile recovery
文件恢復\tfile recovery
檔案復原\tfile recovery
回收站\ttrash recycle bin
資源回收筒\ttrash recycle bin
删除\tdelete remove
刪除\tdelete remove
删掉\tdelete remove
刪掉\tdelete remove
移除\tremove delete
永久删除\tpermanently delete
永久刪除\tpermanently delete
丢失\tlost missing
丟失\tlost missing
消失\tdisappear missing
不见了\tmissing disappear
不見了\tmissing disappear
备份\tbackup
備份\tbackup
导入\timport
匯入\timport
导出\texport
匯出\texport
迁移\tmigrate migration
遷移\tmigrate migration
转换\tconvert conversion
轉換\tconvert conversion
格式转换\tformat converter
格式轉換\tformat converter
扩展名\tfile extension
擴展名\tfile extension
副檔名\tfile extension
图片\timage images
圖片\timage images
截图\tscreenshot
截圖\tscreenshot
附件\tattachment attachments
音频\taudio
音頻\taudio
音訊\taudio
视频\tvideo
視頻\tvideo
影片\tvideo
录音\taudio recording record
錄音\taudio recording record
手写\thandwriting
手寫\thandwriting
粘贴\tpaste
粘貼\tpaste
貼上\tpaste
复制\tcopy duplicate
拖拽\tdrag and drop
拖放\tdrag and drop
拖动\tdrag
拖動\tdrag
拖曳\tdrag
剪藏\tweb clipper clip
网页\tweb page webpage
網頁\tweb page webpage
网站\twebsite site
網站\twebsite site
网址\turl address
網址\turl address
浏览器\tbrowser
瀏覽器\tbrowser
发布\tpublish
發布\tpublish
發佈\tpublish
域名\tdomain
网域\tdomain
網域\tdomain
分享\tshare
共享\tshare shared
协作\tcollaboration collaborate
協作\tcollaboration collaborate
团队\tteam
團隊\tteam
权限\tpermission permissions
權限\tpermission permissions
账号\taccount
賬號\taccount
帳號\taccount
账户\taccount
賬戶\taccount
帳戶\taccount
登录\tlogin log in
登錄\tlogin log in
登入\tlogin log in
登出\tlogout log out
退出\tquit exit logout
注册\tregister sign up
註冊\tregister sign up
两步验证\ttwo factor authentication 2fa
兩步驗證\ttwo factor authentication 2fa
双重认证\ttwo factor authentication 2fa
雙重認證\ttwo factor authentication 2fa
验证\tverify verification authentication
驗證\tverify verification authentication
认证\tauthentication
認證\tauthentication
验证码\tverification code
驗證碼\tverification code
密码\tpassword
密碼\tpassword
忘记密码\tforgot password
忘記密碼\tforgot password
邮箱\temail
郵箱\temail
加密\tencryption encrypt
端到端加密\tend to end encryption
隐私\tprivacy
隱私\tprivacy
数据\tdata
數據\tdata
資料\tdata
许可证\tlicense
許可證\tlicense
授权\tlicense authorization
授權\tlicense authorization
价格\tprice pricing
價格\tprice pricing
定价\tpricing
定價\tpricing
费用\tcost fee price
費用\tcost fee price
收费\tfee charge pricing
收費\tfee charge pricing
多少钱\tprice cost
多少錢\tprice cost
付款\tpayment pay
支付\tpayment pay
发票\tinvoice receipt
發票\tinvoice receipt
收据\treceipt
收據\treceipt
订阅\tsubscription subscribe
訂閱\tsubscription subscribe
续费\trenew renewal
續費\trenew renewal
退款\trefund
折扣\tdiscount
优惠\tdiscount promotion
優惠\tdiscount promotion
學生\tstudent
教育\teducation
商业\tcommercial business
商業\tcommercial business
商业许可\tcommercial license
商業許可\tcommercial license
商业授权\tcommercial license
商業授權\tcommercial license
公司\tcompany business
企业\tbusiness enterprise company
个人使用\tpersonal use
個人使用\tpersonal use
非营利\tnonprofit non profit
非營利\tnonprofit non profit
捐赠\tdonate donation
捐贈\tdonate donation
免费\tfree
免費\tfree
付费\tpaid
付費\tpaid
购买\tpurchase buy
購買\tpurchase buy
买断\tone time purchase
買斷\tone time purchase
取消\tcancel
过期\texpired expire
過期\texpired expire
升级\tupgrade
升級\tupgrade
安装\tinstall installation
安裝\tinstall installation
卸载\tuninstall
卸載\tuninstall
解除安裝\tuninstall
下载\tdownload
下載\tdownload
上传\tupload
上傳\tupload
测试版\tbeta
測試版\tbeta
内测\tbeta insider
內測\tbeta insider
更新日志\tchangelog release notes
更新日誌\tchangelog release notes
桌面\tdesktop
桌面端\tdesktop app
电脑\tcomputer desktop
電腦\tcomputer desktop
移动端\tmobile
移動端\tmobile
移动设备\tmobile device
移動設備\tmobile device
行動裝置\tmobile device
行動版\tmobile
手机\tphone mobile
手機\tphone mobile
平板\ttablet
苹果\tapple mac ios
蘋果\tapple mac ios
安卓\tandroid
窗口\twindow
新窗口\tnew window
新視窗\tnew window
设备\tdevice
設備\tdevice
裝置\tdevice
多设备\tmultiple devices
多設備\tmultiple devices
系统\tsystem
系統\tsystem
存储\tstorage store
存儲\tstorage store
儲存\tsave storage store
自动保存\tautosave auto save
自動儲存\tautosave auto save
位置\tlocation position
路径\tpath
路徑\tpath
绝对路径\tabsolute path
絕對路徑\tabsolute path
相对路径\trelative path
相對路徑\trelative path
符号链接\tsymlink symbolic link
符號鏈接\tsymlink symbolic link
符號連結\tsymlink symbolic link
软链接\tsymlink
軟鏈接\tsymlink
本地\tlocal
云端\tcloud
雲端\tcloud
云盘\tcloud drive
雲盤\tcloud drive
网盘\tcloud drive
網盤\tcloud drive
离线\toffline
離線\toffline
网络\tnetwork internet
網絡\tnetwork internet
網路\tnetwork internet
服务器\tserver
服務器\tserver
伺服器\tserver
限制\tlimit limitation restriction
文件大小\tfile size
檔案大小\tfile size
大小\tsize
设置\tsettings preferences
設置\tsettings preferences
设定\tsettings preferences
配置\tconfiguration config settings
配置文件\tconfig file configuration
設定檔\tconfig file configuration
配置文件夹\tconfig folder configuration
配置資料夾\tconfig folder configuration
隐藏文件\thidden files
隱藏檔案\thidden files
排除\texclude excluded
忽略\tignore
选项\toptions option
選項\toptions option
偏好设置\tpreferences settings
偏好設置\tpreferences settings
偏好設定\tpreferences settings
默认\tdefault
默認\tdefault
預設\tdefault
语言\tlanguage
語言\tlanguage
中文\tchinese
英文\tenglish
翻译\ttranslation translate
翻譯\ttranslation translate
汉化\tchinese translation localization
漢化\tchinese translation localization
编码\tencoding
編碼\tencoding
乱码\tgarbled encoding
亂碼\tgarbled encoding
全形\tfull width
半形\thalf width
空格\tspace
帮助\thelp
幫助\thelp
支持\tsupport
支援\tsupport
客服\tcustomer support
联系\tcontact
聯繫\tcontact
反馈\tfeedback
反饋\tfeedback
回饋\tfeedback
社区\tcommunity
社區\tcommunity
社群\tcommunity
论坛\tforum
論壇\tforum
官网\tofficial website
官網\tofficial website
教程\ttutorial guide
教學\ttutorial guide
常见问题\tfaq
常見問題\tfaq
故障排除\ttroubleshooting
疑難排解\ttroubleshooting
兼容\tcompatible compatibility
相容\tcompatible compatibility
字数\tword count
字數\tword count
字数统计\tword count
字數統計\tword count
字符数\tcharacter count
字符數\tcharacter count
字元數\tcharacter count
统计\tstatistics count
統計\tstatistics count
幻灯片\tslides presentation
幻燈片\tslides presentation
投影片\tslides presentation
演示\tpresentation demo
簡報\tpresentation slides
随机笔记\trandom note
隨機筆記\trandom note
随机\trandom
隨機\trandom
唯一笔记\tunique note
唯一筆記\tunique note
评论\tcomment comments
評論\tcomment comments
注释\tcomment annotation
註釋\tcomment annotation
批注\tcomment annotation
批註\tcomment annotation
源码\tsource code
源碼\tsource code
原始碼\tsource code
命令行\tcommand line cli
命令列\tcommand line cli
终端\tterminal
終端\tterminal
脚本\tscript
腳本\tscript
接口\tapi interface
界面\tinterface ui
介面\tinterface ui
开源\topen source
開源\topen source
自动化\tautomation automate
自动\tautomatic auto
手动\tmanual
人工智能\tai artificial intelligence
人工智慧\tai artificial intelligence
总结\tsummary summarize
總結\tsummary summarize
摘要\tsummary abstract summarize
移动\tmove
跳转\tjump navigate
跳轉\tjump navigate
重命名\trename
改名\trename
名称\tname
名稱\tname
隐藏\thide hidden
隱藏\thide hidden
显示\tshow display
顯示\tshow display
不显示\tnot showing hidden
不顯示\tnot showing hidden
看不到\tnot visible missing
修改\tchange edit modify
更改\tchange modify
打开\topen
打開\topen
开启\topen enable
開啟\topen enable
启用\tenable
啟用\tenable
禁用\tdisable
停用\tdisable
关闭\tclose disable
關閉\tclose disable
覆盖\toverwrite
覆蓋\toverwrite
快速\tfast quick
速度\tspeed
加载\tload loading
加載\tload loading
載入\tload loading
卡顿\tlag slow
卡頓\tlag slow
卡住\tstuck freeze hang
很慢\tslow
变慢\tslow slowdown
變慢\tslow slowdown
太慢\tslow
性能\tperformance
效能\tperformance
启动\tstartup launch
啟動\tstartup launch
崩溃\tcrash
崩潰\tcrash
闪退\tcrash
閃退\tcrash
报错\terror
報錯\terror
错误\terror
錯誤\terror
失败\tfail failed
不能用\tnot working
不生效\tnot working
失效\tnot working broken
切换\tswitch toggle
切換\tswitch toggle
开关\ttoggle switch
開關\ttoggle switch
选择\tselect choose selection
選擇\tselect choose selection
批量\tbulk batch
合并\tmerge
合併\tmerge
重复\tduplicate repeat
层级\thierarchy level
層級\thierarchy level
文件管理器\tfile manager
檔案管理器\tfile manager
资源管理器\tfile explorer
資源管理器\tfile explorer
访达\tfinder
訪達\tfinder
屏幕\tscreen
螢幕\tscreen
全屏\tfullscreen
全螢幕\tfullscreen
缩放\tzoom scale
縮放\tzoom scale
放大\tzoom in enlarge
缩小\tzoom out shrink
重置\treset
重启\trestart
重啟\trestart
重新啟動\trestart
重新加载\treload
重新加載\treload
重新載入\treload
刷新\trefresh reload
缓存\tcache
緩存\tcache
快取\tcache
索引\tindex indexing
开发者工具\tdeveloper tools console
開發者工具\tdeveloper tools console
控制台\tconsole
应用\tapp application
應用\tapp application
應用程式\tapplication app
软件\tsoftware app
軟件\tsoftware app
軟體\tsoftware app
行号\tline numbers
行號\tline numbers
行距\tline spacing height
行宽\tline width line length
行寬\tline width line length
拼写检查\tspellcheck spell check
拼寫檢查\tspellcheck spell check
拼字檢查\tspellcheck spell check
输入法\tinput method ime
輸入法\tinput method ime
自动补全\tautocomplete
自動補全\tautocomplete
按钮\tbutton
按鈕\tbutton
图标\ticon
圖標\ticon
圖示\ticon
置顶\tpin pinned top
置頂\tpin pinned top
滚动\tscroll
滾動\tscroll
捲動\tscroll
对齐\talign alignment
對齊\talign alignment
居中\tcenter align
置中\tcenter align
提醒\treminder remind
创建时间\tcreated time
創建時間\tcreated time
修改时间\tmodified time
修改時間\tmodified time
只读\tread only
只讀\tread only
唯讀\tread only
小组件\twidget
小組件\twidget
小工具\twidget
知识管理\tknowledge management
思维导图\tmind map
思維導圖\tmind map
心智圖\tmind map
区块\tblock
區塊\tblock
块引用\tblock reference
塊引用\tblock reference
區塊引用\tblock reference
文本\ttext
文字\ttext
纯文本\tplain text
純文本\tplain text
純文字\tplain text
打印\tprint
列印\tprint
数据库\tdatabase
數據庫\tdatabase
資料庫\tdatabase
视图\tview
視圖\tview
檢視\tview
模式\tmode
渲染\trender rendering
工作流\tworkflow
数学\tmath
數學\tmath
行内公式\tinline math
行內公式\tinline math
插入公式\tinsert formula math
公式块\tmath block formula
公式塊\tmath block formula
兩步驟驗證\ttwo factor authentication 2fa
一共\ttotal
总共\ttotal
總共\ttotal
"""
}
