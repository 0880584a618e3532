/**
 * Passwords that attackers try first: the top of public breach-frequency lists (rockyou,
 * the yearly "worst passwords" lists), their usual digit and symbol variants, written in
 * lower case and limited to 8+ characters, as shorter ones fail the length rule anyway.
 * Compared case-insensitively. A block list, not composition rules (ASVS 2.1.7, NIST 800-63B).
 */
const LIST = `
password password1 password12 password123 password1234 password12345 password! password1! passw0rd p@ssw0rd
p@ssword pa$$word pa55word passwort motdepasse contraseña contrasena 12345678 123456789 1234567890
12345678910 123123123 123456123 987654321 9876543210 11111111 111111111 1111111111 00000000 000000000
0000000000 22222222 88888888 99999999 12341234 11223344 12121212 13131313 12344321 123qweasd 1q2w3e4r
1q2w3e4r5t 1q2w3e4r5t6y 1qaz2wsx 1qaz2wsx3edc 1qazxsw2 zaq12wsx zaq1zaq1 zaq1xsw2 qwertyui qwertyuiop
qwerty123 qwerty1234 qwerty12 qwerty11 qwerty123456 qwertyuiop123 qwe123qwe qweasdzxc qweasd123 asdfghjk
asdfghjkl asdf1234 asdfasdf zxcvbnm1 zxcvbnm123 zxcvbnma 1234qwer abcd1234 abc12345 abcdefgh abcdefg1
abcdef123 a1b2c3d4 a1234567 aa123456 aaaaaaaa iloveyou iloveyou1 iloveyou2 iloveyou! loveyou1 lovelove
sunshine sunshine1 princess princess1 football football1 baseball baseball1 basketball superman superman1
batman123 starwars starwars1 whatever whatever1 trustno1 trustno12 letmein1 letmein123 welcome1 welcome123
welcome12 welcome! changeme changeme1 changeme123 passpass secret123 secret12 default1 administrator admin123
admin1234 admin12345 adminadmin administrator1 root1234 rootroot toor1234 master12 master123 mastermind
michael1 jennifer jennifer1 jordan23 jessica1 michelle christian charlie1 computer computer1 internet
football12 football123 mustang1 shadow12 shadow123 monkey12 monkey123 dragon12 dragon123 killer12 pokemon1
pokemon123 minecraft minecraft1 fortnite fortnite1 chocolate chocolate1 butterfly butterfly1 elephant
flower123 liverpool liverpool1 chelsea1 arsenal1 manchester manutd99 barcelona realmadrid ronaldo7 cristiano
juventus playstation playstation2 xbox3601 nintendo blink182 metallica slipknot eminem123 beautiful
beautiful1 babygirl babygirl1 lovely123 angel123 samantha samantha1 danielle victoria alexander alexandra
nicholas jonathan benjamin anthony1 william1 patrick1 thomas12 ashley12 andrew123 michael123 jasmine1
hannah12 matthew1 qazwsxedc qazwsx123 qwaszx12 zxcvbnmasdfghjkl q1w2e3r4 q1w2e3r4t5 q1w2e3r4t5y6 1a2b3c4d
7777777777 77777777 55555555 66666666 33333333 44444444 12345qwert 123456qwerty 123456abc 123abc123 abc123abc
abcabc123 987654321a asdasdasd qweqweqwe zxczxczxc asd123asd hello123 hello1234 helloworld hellokitty
goodluck freedom1 whatsup1 letmeinnow myspace1 facebook facebook1 instagram twitter1 google123 youtube1
linkedin microsoft windows7 windows10 apple123 samsung1 samsung123 iphone123 netflix1 spotify1 bitcoin1
crypto123 blockchain matrix123 cheese123 summer12 summer2020 summer2021 summer2022 summer2023 summer2024
winter12 winter2020 winter2023 spring2024 autumn2023 january1 december september november1 october1 monday123
sunday123 friday13 newyork1 london123 chicago1 dallas123 america1 canada123 australia germany1 france123
brazil123 mexico123 test1234 test12345 testtest testing1 testing123 guest123 user1234 username username1
login123 access14 access123 security security1 private1 letmein! iloveu123 fuckyou1 fuckoff1 biteme12
asshole1 password2 password3 password01 password321 drowssap 1password !qaz2wsx !qaz@wsx abc123!@# qwerty!@#
!@#$%^&* 1234!@#$ !@#$%^&*() 1q2w3e4r! p4ssw0rd pa55w0rd passw0rd1 p@ssw0rd1 p@ssw0rd123 p@55w0rd wachtwoord
parola123 haslo123 senha123 sifre123 qwertz123 azerty123 azertyuiop 1234abcd 12qwaszx 12345abc 1234567a
123456aa 11qqaa22 superstar rockstar rockstar1 lol12345 yankees1 cowboys1 steelers eagles12 packers1 lakers24
dolphins tigers12 hunter12 hunter123 ranger12 soccer12 hockey12 tennis12 golfer12 jordan123 michael23
chicken1 pepper12 ginger12 cookie12 cookie123 buster12 maggie12 bailey12 tigger12 snoopy12 garfield scooby12
mickey12 disney123 peaches1 banana12 orange12 purple12 yellow12 silver12 golden12 diamond1 diamonds crystal1
rainbow1 thunder1 lightning phoenix1 warrior1 zeppelin nirvana1
`;

export const COMMON_PASSWORDS: ReadonlySet<string> = new Set(LIST.split(/\s+/).filter(Boolean));
